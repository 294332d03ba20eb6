/**
 * Run the real, pinned Claude Code binary offline against the scripted model.
 *
 *   const run = await runClaude({ prompt: "go", pluginDir, script: [[toolUse("Bash", {command: "echo hi"})], [text("done")]] });
 *   run.result.permission_denials; run.model.mainRequests(); run.transcript();
 *
 * Every run gets a scratch HOME (no user configuration leaks in) and a scratch
 * working folder unless `cwd` is given. The child gets a minimal environment
 * built from scratch, runs in its own process group, and that whole group is
 * killed when the run ends or times out.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  startScriptedModel,
  type RecordedRequest,
  type RequestKind,
  type Script,
  type ScriptedModel,
  type ScriptedModelOptions,
} from "./scripted-model.js";
import { startNetTrap, type OutboundAttempt } from "./net-trap.js";

const HERE = dirname(fileURLToPath(import.meta.url));
/** Repository root (test/e2e/support → ../../..). */
export const REPO_ROOT = resolve(HERE, "..", "..", "..");
/** The pinned Claude Code binary. */
export const CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");

/** A dummy key: the scripted model accepts anything. Its last 20 characters are what `.claude.json` approves. */
export const DUMMY_API_KEY = "sk-ant-api03-scripted-offline-test-key-0123456789abcdefghij";

export interface RunClaudeOptions {
  prompt: string;
  /** `--plugin-dir` (one or several) */
  pluginDir?: string | string[];
  /** main-conversation script */
  script: Script;
  /** subagent script (default: subagent requests consume `script` too) */
  subagentScript?: Script;
  classify?: (req: RecordedRequest) => RequestKind | undefined;
  /** the usage each main or subagent reply reports (see ScriptedModelOptions.usage) */
  usage?: ScriptedModelOptions["usage"];
  /** when the script runs out: answer "done." (default) or fail the run */
  whenExhausted?: "end_turn" | "error";
  /** `--allowedTools` entries (default: none). */
  allowedTools?: string[];
  /** working folder (default: a fresh temp folder) */
  cwd?: string;
  /** skill folders copied into `<cwd>/.claude/skills/` before the run (project skills) */
  projectSkills?: string[];
  /** scratch HOME to reuse (default: a fresh one, see `makeScratchHome`) */
  home?: string;
  /** extra environment for the claude process (added to the minimal one) */
  env?: Record<string, string>;
  extraArgs?: string[];
  /** hard limit for the whole run, default 45 s */
  timeoutMs?: number;
  /**
   * A command to run claude under, its argv after these words (e.g. `["unshare",
   * "-p", "-f", "--mount-proc"]`, so that a model's `pkill node` reaches only
   * this run's processes).
   */
  wrap?: string[];
  /** `--output-format` (default "json") */
  outputFormat?: "json" | "text" | "stream-json";
  /** log requests to stderr */
  debug?: boolean;
  /**
   * Route HTTP(S)_PROXY to a loopback trap that refuses and records every
   * attempt to reach a non-loopback host (default true). See `outbound`.
   */
  trapNetwork?: boolean;
}

/** The JSON result `claude -p --output-format json` prints (the fields tests use; more are present). */
export interface ClaudeJsonResult {
  type: "result";
  subtype: string;
  is_error: boolean;
  result?: string;
  session_id: string;
  num_turns: number;
  stop_reason?: string;
  terminal_reason?: string;
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }>;
  [k: string]: unknown;
}

export interface RunClaudeResult {
  /** parsed JSON result (undefined when stdout was not JSON) */
  result: ClaudeJsonResult | undefined;
  /** every request the scripted model received */
  requests: RecordedRequest[];
  /** the (closed) scripted model, for mainRequests() / subagentRequests() / sideRequests() */
  model: ScriptedModel;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  /** process.hrtime.bigint() when claude was spawned: start-up is measured from here (scripts/bench). */
  spawnedAt: bigint;
  home: string;
  cwd: string;
  sessionId: string | undefined;
  /** main transcript: $HOME/.claude/projects/<cwd slug>/<session_id>.jsonl */
  transcriptPath: string | undefined;
  /** every *.jsonl under $HOME/.claude/projects (main and subagent transcripts) */
  transcriptPaths: string[];
  /** parsed lines of the main transcript (unparsable lines skipped) */
  transcript(): any[];
  /** the argv claude was started with */
  argv: string[];
  /** attempts to reach a non-loopback host, refused by the trap proxy */
  outbound: OutboundAttempt[];
  /** remove the scratch HOME and working folder this run created (not ones passed in) */
  cleanup(): void;
}

/**
 * `.claude.json` for a scratch HOME: onboarding done, the folders trusted, the
 * dummy API key approved, no tips / release notes / surveys.
 */
export function scratchClaudeJson(trustedDirs: string[] = []): Record<string, unknown> {
  const projects: Record<string, unknown> = {};
  for (const d of trustedDirs) {
    projects[d] = {
      allowedTools: [],
      hasTrustDialogAccepted: true,
      hasCompletedProjectOnboarding: true,
      projectOnboardingSeenCount: 1,
      hasClaudeMdExternalIncludesApproved: false,
      hasClaudeMdExternalIncludesWarningShown: true,
    };
  }
  return {
    numStartups: 1,
    installMethod: "npm-local",
    autoUpdates: false,
    hasCompletedOnboarding: true,
    lastOnboardingVersion: "2.1.328",
    lastReleaseNotesSeen: "2.1.328",
    theme: "dark",
    hasSeenTasksHint: true,
    hasUsedBackslashReturn: true,
    bypassPermissionsModeAccepted: false,
    hasAcknowledgedCostThreshold: true,
    customApiKeyResponses: { approved: [DUMMY_API_KEY.slice(-20)], rejected: [] },
    tipsHistory: {},
    projects,
  };
}

/** Create a scratch HOME with a pre-seeded `.claude.json` and `.claude/settings.json`. */
export function makeScratchHome(trustedDirs: string[] = []): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "cc-home-")));
  seedScratchHome(home, trustedDirs);
  return home;
}

/** A scratch HOME whose settings set the plugin's options, as the user does (plugin id `utility@inline` under --plugin-dir). */
export function homeWithOptions(options: Record<string, unknown>, trustedDirs: string[] = []): string {
  const home = makeScratchHome(trustedDirs);
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

/** (Re)write the scratch HOME's config, trusting `trustedDirs` in addition to what it trusts already. */
export function seedScratchHome(home: string, trustedDirs: string[] = []): void {
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(home, "tmp"), { recursive: true });
  const cfgPath = join(home, ".claude.json");
  let existing: Record<string, any> = {};
  try {
    existing = JSON.parse(readFileSync(cfgPath, "utf8"));
  } catch {
    existing = {};
  }
  const fresh = scratchClaudeJson(trustedDirs);
  const merged = { ...fresh, ...existing, projects: { ...(existing.projects ?? {}), ...(fresh.projects as object) } };
  writeFileSync(cfgPath, JSON.stringify(merged, null, 2));
  const settingsPath = join(home, ".claude", "settings.json");
  if (!existsSync(settingsPath)) {
    writeFileSync(
      settingsPath,
      JSON.stringify(
        { $schema: "https://json.schemastore.org/claude-code-settings.json", autoUpdates: false, spinnerTipsEnabled: false },
        null,
        2,
      ),
    );
  }
}

/**
 * The environment claude runs with: built from scratch (nothing of the
 * caller's CLAUDE_* / ANTHROPIC_* / proxy variables leaks in), pointing at the
 * scripted model, with auto-update, telemetry and nonessential traffic off.
 */
export function claudeEnv(home: string, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    USER: process.env.USER ?? "root",
    LANG: "C.UTF-8",
    TERM: "dumb",
    SHELL: "/bin/bash",
    // Claude Code keeps per-session scratch (sockets, notes, task output) under TMPDIR.
    TMPDIR: join(home, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: DUMMY_API_KEY,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_UPDATES: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_GROWTHBOOK: "1",
    DISABLE_INSTALLATION_CHECKS: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    CLAUDE_CODE_ENABLE_TELEMETRY: "0",
    ...extra,
  };
  return env;
}

/** Every *.jsonl under `$HOME/.claude/projects`. */
export function findTranscripts(home: string): string[] {
  const root = join(home, ".claude", "projects");
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p);
      else if (n.endsWith(".jsonl")) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** Parse a JSONL file, skipping lines that are not JSON. */
export function readJsonl(path: string): any[] {
  let textContent: string;
  try {
    textContent = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: any[] = [];
  for (const line of textContent.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // cut short or not JSON
    }
  }
  return out;
}

/** Kill a process group we started; ignore "no such process". */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * The project folder and scratch HOME of a run: the given ones (HOME seeded to
 * trust the folder), or new temporary ones, listed in `created` for clean-up.
 */
export function prepareDirs(opts: { cwd?: string; home?: string; projectSkills?: string[] }): {
  cwd: string;
  home: string;
  created: string[];
} {
  const cwd = opts.cwd ? realpathSync(opts.cwd) : realpathSync(mkdtempSync(join(tmpdir(), "cc-cwd-")));
  for (const skill of opts.projectSkills ?? []) cpSync(skill, join(cwd, ".claude", "skills", basename(skill)), { recursive: true });
  const home = opts.home ?? makeScratchHome([cwd]);
  if (opts.home) seedScratchHome(home, [cwd]);
  const created = [...(opts.cwd ? [] : [cwd]), ...(opts.home ? [] : [home])];
  return { cwd, home, created };
}

/** Run `claude -p` once against a scripted model. Never throws for a failing claude: inspect exitCode / stderr. */
export async function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
  if (!existsSync(CLAUDE_BIN)) throw new Error(`Claude Code binary not found at ${CLAUDE_BIN} (run npm run setup)`);
  const { cwd, home, created } = prepareDirs(opts);
  const model = await startScriptedModel({
    script: opts.script,
    subagentScript: opts.subagentScript,
    classify: opts.classify,
    ...(opts.usage ? { usage: opts.usage } : {}),
    whenExhausted: opts.whenExhausted,
    debug: opts.debug,
  });
  const argv = ["-p", opts.prompt, "--output-format", opts.outputFormat ?? "json"];
  if (opts.outputFormat === "stream-json") argv.push("--verbose");
  for (const d of [opts.pluginDir ?? []].flat()) argv.push("--plugin-dir", d);
  if (opts.allowedTools && opts.allowedTools.length > 0) argv.push("--allowedTools", opts.allowedTools.join(","));
  argv.push(...(opts.extraArgs ?? []));
  const trap =
    opts.trapNetwork === false
      ? undefined
      : await startNetTrap().catch(async (e) => {
          await model.close();
          throw e;
        });
  const env = claudeEnv(home, model.url, { ...(trap?.env() ?? {}), ...opts.env });
  const timeoutMs = opts.timeoutMs ?? 45_000;
  const t0 = Date.now();

  let stdout = "";
  let stderr = "";
  let timedOut = false;
  const [command, ...before] = opts.wrap ?? [CLAUDE_BIN];
  const args = opts.wrap ? [...before, CLAUDE_BIN, ...argv] : argv;
  const spawnedAt = process.hrtime.bigint();
  const child = spawn(command!, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code, sig) => {
      clearTimeout(timer);
      resolveExit({ exitCode: code, signal: sig });
    });
  }).finally(async () => {
    // Hooks or background shells claude left behind share its process group.
    killGroup(child.pid, "SIGKILL");
    await model.close();
    await trap?.close();
  });

  let result: ClaudeJsonResult | undefined;
  if ((opts.outputFormat ?? "json") === "json") {
    try {
      result = JSON.parse(stdout.trim()) as ClaudeJsonResult;
    } catch {
      result = undefined;
    }
  }
  const transcriptPaths = findTranscripts(home);
  const sessionId = result?.session_id ?? sessionIdFromRequests(model.requests);
  const transcriptPath = sessionId ? transcriptPaths.find((p) => p.endsWith(`/${sessionId}.jsonl`)) : undefined;
  return {
    result,
    requests: model.requests,
    model,
    stdout,
    stderr,
    exitCode,
    signal,
    timedOut,
    durationMs: Date.now() - t0,
    spawnedAt,
    home,
    cwd,
    sessionId,
    transcriptPath,
    transcriptPaths,
    transcript: () => (transcriptPath ? readJsonl(transcriptPath) : []),
    argv,
    outbound: trap?.attempts ?? [],
    cleanup: () => {
      for (const d of created) rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

function sessionIdFromRequests(reqs: RecordedRequest[]): string | undefined {
  for (const r of reqs) {
    const h = r.headers["x-claude-code-session-id"];
    if (typeof h === "string") return h;
  }
  return undefined;
}

/** Throw with stdout/stderr and the script errors when a run did not end cleanly. */
export function assertRunOk(run: RunClaudeResult): ClaudeJsonResult {
  const problems: string[] = [];
  if (run.timedOut) problems.push(`timed out after ${run.durationMs} ms`);
  if (run.exitCode !== 0) problems.push(`exit code ${run.exitCode}${run.signal ? ` (signal ${run.signal})` : ""}`);
  if (!run.result) problems.push("stdout is not a JSON result");
  else if (run.result.is_error) problems.push(`result is_error (${run.result.subtype}): ${String(run.result.result ?? "")}`);
  if (run.model.errors.length) problems.push(`script errors: ${run.model.errors.map((e) => e.message).join("; ")}`);
  if (problems.length) {
    throw new Error(
      `claude run failed: ${problems.join(", ")}\n` +
        `argv: ${JSON.stringify(run.argv)}\n--- stdout ---\n${run.stdout.slice(-4000)}\n--- stderr ---\n${run.stderr.slice(-4000)}`,
    );
  }
  return run.result!;
}
