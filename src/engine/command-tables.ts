// The words the reading of a command line (./command-files.ts) knows by name:
// shell syntax, wrappers, printers, variables that load code. Data only.

/** Words that open or close a compound command, or negate one: the command follows them. */
export const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "function",
  "coproc",
]);

/** Commands that run the command after them (their own options first). */
export const WRAPPERS = new Set([
  "exec",
  "command",
  "nohup",
  "time",
  "nice",
  "sudo",
  "xargs",
  "builtin",
  "stdbuf",
  "timeout",
  "busybox",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
  "doas",
  "flock",
  "strace",
  "ltrace",
  "setpriv",
  "prlimit",
  "watch",
  "unbuffer",
  "firejail",
  "chroot",
  "nsenter",
  "unshare",
  "runuser",
  "script",
  "catchsegv",
]);

/** Options of a wrapper that take the next word as their value (`nice -n 5`, `sudo -u bob`, `timeout -s KILL`, `exec -a name`). */
export const WRAPPER_VALUED = new Set(["-n", "-u", "-g", "-s", "-k", "-I", "-L", "-P", "-d", "-a", "-c"]);

/** Names of script files: one on the line is run somewhere (`pytest tests/test_a.py`). */
export const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|tcl)$/i;

/** Programs that print a file: inside a command substitution, what they print may be run (`eval "$(cat f)"`). */
export const PRINTERS = new Set(["cat", "head", "tail", "base64", "zcat", "gunzip", "xxd", "tac", "sed", "awk", "tr"]);

/** Variables that name files or folders a program loads code from before it runs what it was asked to. */
export const LOADS_FROM = new Set([
  "BASH_ENV",
  "ENV",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "NODE_PATH",
  "PERL5LIB",
  "PERLLIB",
  "RUBYLIB",
  "LD_PRELOAD",
  "ZDOTDIR",
]);

/** Options of `env` that take the next word as their value. */
export const ENV_VALUED = new Set(["-C", "--chdir", "-u", "--unset"]);

const CODE_EXTENSIONS = ["js", "cjs", "mjs", "ts", "cts", "mts"];
const configsOf = (...bases: string[]) => bases.flatMap((base) => CODE_EXTENSIONS.map((ext) => `${base}.${ext}`));

/**
 * The code a tool loads from the folder it runs in, by convention: a hook's `npx eslint src` runs
 * eslint.config.js, `npx prettier --check .` prettier.config.cjs (red team 8). Guarded in the project when a
 * line runs the tool.
 */
export const TOOL_CONFIGS: Record<string, readonly string[]> = {
  eslint: configsOf("eslint.config", ".eslintrc"),
  prettier: configsOf("prettier.config", ".prettierrc"),
  stylelint: configsOf("stylelint.config", ".stylelintrc"),
  jest: configsOf("jest.config", "babel.config", ".babelrc"),
  vitest: configsOf("vitest.config", "vitest.workspace", "vite.config"),
  vite: configsOf("vite.config"),
  mocha: configsOf(".mocharc"),
  ava: configsOf("ava.config"),
  playwright: configsOf("playwright.config"),
  cypress: configsOf("cypress.config"),
  webpack: configsOf("webpack.config"),
  rollup: configsOf("rollup.config"),
  tsup: configsOf("tsup.config"),
  next: configsOf("next.config"),
  commitlint: configsOf("commitlint.config", ".commitlintrc"),
  "lint-staged": configsOf("lint-staged.config", ".lintstagedrc"),
  babel: configsOf("babel.config", ".babelrc"),
  postcss: configsOf("postcss.config"),
  tailwindcss: configsOf("tailwind.config"),
};
