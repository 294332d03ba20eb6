// What `npm run setup` and `npm run demo` tell a person before they act: the
// first run's install (what, how many packages, how big), and how to open the
// demo's HTML report where there is (or is no) display. Pure: no I/O here.

/** Measured: `du -sh dev/node_modules` after `npm ci` on Linux x64, 2026-12-06. */
export const INSTALLED_MB = 600;

/** Does a lock entry install here? npm skips an optional package whose `os`, `cpu` or `libc` leaves this platform out. */
function installsOn(entry, platform) {
  const fits = (wanted, have) => !Array.isArray(wanted) || wanted.includes(have);
  return fits(entry.os, platform.os) && fits(entry.cpu, platform.cpu) && (platform.libc === undefined || fits(entry.libc, platform.libc));
}

/** This machine, as npm matches a lock entry's `os`, `cpu` and `libc`. */
export function thisPlatform() {
  const glibc = process.platform === "linux" ? process.report?.getReport?.().header?.glibcVersionRuntime : undefined;
  return { os: process.platform, cpu: process.arch, ...(process.platform === "linux" ? { libc: glibc ? "glibc" : "musl" } : {}) };
}

/** The one line said before `npm ci` runs in dev/, from its lock file: the packages npm installs on `platform`. */
export function installNotice(lock, platform = thisPlatform()) {
  const packages = Object.entries(lock.packages ?? {}).filter(([key, entry]) => key !== "" && installsOn(entry, platform)).length;
  const claude = lock.packages?.["node_modules/@anthropic-ai/claude-code"]?.version;
  const pinned = claude ? `, most of it the pinned Claude Code ${claude} the demo and the tests run` : "";
  return `utility: first run: installing the development tools into dev/ (npm ci from the npm registry): ${packages} package${packages === 1 ? "" : "s"}, about ${INSTALLED_MB} MB on disk${pinned}. Later runs skip this.`;
}

/**
 * How to open the HTML report: the platform's opener where a browser can
 * show it; on Linux with no display (no DISPLAY, no WAYLAND_DISPLAY) no
 * opener would work, so the file is named with where to open it.
 */
export function openHint(html, platform, env) {
  if (platform === "darwin") return `open ${html}`;
  if (platform === "win32") return `start ${html}`;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return `xdg-open ${html}`;
  return `${html} (no display here: open it in a browser on a machine that has one)`;
}
