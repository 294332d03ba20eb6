/**
 * Drive the interactive Claude Code terminal UI unattended, in tmux, against
 * the scripted model.
 *
 *   const tui = await startClaudeTui({ pluginDir, script });
 *   await tui.waitForPrompt();
 *   await tui.type("hello");          // types the text and presses Enter
 *   await tui.waitFor(/final answer/);
 *   console.log(tui.capture());
 *   await tui.stop();
 *
 * Each session runs on its own tmux server (`tmux -L <unique socket>`), so it
 * never touches anyone else's tmux; `stop()` kills that server only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLAUDE_BIN, claudeEnv, findTranscripts, prepareDirs } from "./claude.js";
import { startNetTrap, type OutboundAttempt } from "./net-trap.js";
import { startScriptedModel, type RecordedRequest, type RequestKind, type Script, type ScriptedModel } from "./scripted-model.js";

export interface StartTuiOptions {
  script: Script;
  subagentScript?: Script;
  classify?: (req: RecordedRequest) => RequestKind | undefined;
  pluginDir?: string | string[];
  allowedTools?: string[];
  cwd?: string;
  /** skill folders copied into `<cwd>/.claude/skills/` before the run */
  projectSkills?: string[];
  home?: string;
  env?: Record<string, string>;
  extraArgs?: string[];
  /**
   * `--permission-mode` (default "default": 2.1.328 otherwise starts the TUI
   * in "auto mode", which decides permissions on its own).
   */
  permissionMode?: string;
  width?: number;
  height?: number;
  debug?: boolean;
  /** refuse and record non-loopback traffic through a trap proxy (default true) */
  trapNetwork?: boolean;
}

export interface ClaudeTui {
  /** tmux socket name (`tmux -L <socket>`) and target pane */
  socket: string;
  target: string;
  model: ScriptedModel;
  requests: RecordedRequest[];
  home: string;
  cwd: string;
  /** the visible screen as plain text */
  capture(): string;
  /** the screen plus scroll-back */
  captureAll(): string;
  /** type literal text, then Enter (unless enter=false) */
  type(text: string, enter?: boolean): Promise<void>;
  /** send tmux key names, e.g. "Enter", "Escape", "C-c", "Down" */
  keys(...keys: string[]): Promise<void>;
  /** wait until the screen matches; throws with the screen on timeout */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** wait for the idle input prompt (the "❯" input line and no spinner) */
  waitForPrompt(timeoutMs?: number): Promise<string>;
  /** is the claude process still alive in the pane? */
  alive(): boolean;
  transcriptPaths(): string[];
  /** attempts to reach a non-loopback host, refused by the trap proxy */
  outbound: OutboundAttempt[];
  /** kill the tmux server (and with it claude) and close the model */
  stop(): Promise<void>;
  /** remove the scratch HOME and working folder this session created (call after stop) */
  cleanup(): void;
}

let counter = 0;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function tmuxAvailable(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export async function startClaudeTui(opts: StartTuiOptions): Promise<ClaudeTui> {
  if (!tmuxAvailable()) throw new Error("tmux is not installed");
  if (!existsSync(CLAUDE_BIN)) throw new Error(`Claude Code binary not found at ${CLAUDE_BIN}`);
  const { cwd, home, created } = prepareDirs(opts);
  const model = await startScriptedModel({
    script: opts.script,
    subagentScript: opts.subagentScript,
    classify: opts.classify,
    debug: opts.debug,
  });
  const trap = opts.trapNetwork === false ? undefined : await startNetTrap();
  const env = claudeEnv(home, model.url, { TERM: "xterm-256color", COLORTERM: "truecolor", ...(trap?.env() ?? {}), ...opts.env });
  const args: string[] = [];
  for (const d of [opts.pluginDir ?? []].flat()) args.push("--plugin-dir", d);
  if (opts.allowedTools?.length) args.push("--allowedTools", opts.allowedTools.join(","));
  args.push("--permission-mode", opts.permissionMode ?? "default");
  args.push(...(opts.extraArgs ?? []));

  counter += 1;
  const socket = `cc-e2e-${process.pid}-${Date.now().toString(36)}-${counter}`;
  const target = "claude";
  const tmux = (...a: string[]): string => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
  // `env -i` so the pane gets exactly our environment, not the tmux server's.
  const cmd = ["env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), CLAUDE_BIN, ...args];
  // One tmux invocation, so the pane is kept (with its last screen) even when
  // claude exits at once.
  try {
    tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      target,
      "-x",
      String(opts.width ?? 160),
      "-y",
      String(opts.height ?? 50),
      "-c",
      cwd,
      ...cmd,
      ";",
      "set-option",
      "-t",
      target,
      "remain-on-exit",
      "on",
    );
  } catch (e) {
    await model.close();
    await trap?.close();
    throw e;
  }

  const capture = () => {
    try {
      return tmux("capture-pane", "-p", "-t", target);
    } catch {
      return "";
    }
  };
  const captureAll = () => {
    try {
      return tmux("capture-pane", "-p", "-S", "-", "-t", target);
    } catch {
      return "";
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const waitFor = async (pattern: RegExp | string, timeoutMs = 15_000): Promise<string> => {
    const t0 = Date.now();
    let screen = "";
    while (Date.now() - t0 < timeoutMs) {
      screen = capture();
      if (typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen)) return screen;
      await sleep(100);
    }
    throw new Error(`TUI: timed out after ${timeoutMs} ms waiting for ${String(pattern)}; screen:\n${screen}`);
  };
  const alive = () => {
    try {
      return tmux("display-message", "-p", "-t", target, "#{pane_dead}").trim() === "0";
    } catch {
      return false;
    }
  };
  let stopped = false;
  return {
    socket,
    target,
    model,
    requests: model.requests,
    home,
    cwd,
    capture,
    captureAll,
    type: async (text: string, enter = true) => {
      tmux("send-keys", "-t", target, "-l", text);
      if (enter) {
        // Give the input box a moment to take the pasted text before Enter.
        await sleep(250);
        tmux("send-keys", "-t", target, "Enter");
      }
    },
    keys: async (...keys: string[]) => {
      tmux("send-keys", "-t", target, ...keys);
      await sleep(50);
    },
    waitFor,
    waitForPrompt: (timeoutMs = 20_000) => waitFor(/^❯[ \u00a0]*$/m, timeoutMs),
    alive,
    transcriptPaths: () => findTranscripts(home),
    outbound: trap?.attempts ?? [],
    stop: async () => {
      if (stopped) return;
      stopped = true;
      let pid = 0;
      try {
        pid = Number(tmux("display-message", "-p", "-t", target, "#{pane_pid}").trim()) || 0;
      } catch {
        // no pane
      }
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
      // tmux leaves its socket file behind.
      const uid = process.getuid?.() ?? 0;
      rmSync(join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${uid}`, socket), { force: true });
      // Wait for claude to finish writing into HOME, then make sure it is gone.
      const t0 = Date.now();
      while (pid && isAlive(pid) && Date.now() - t0 < 5000) await sleep(50);
      if (pid && isAlive(pid)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      await model.close();
      await trap?.close();
    },
    cleanup: () => {
      for (const d of created) rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
