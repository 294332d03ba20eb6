/**
 * Shared pieces of the hardening suite: run the bundled hook entries as real
 * processes, build sandboxes and synthetic transcripts, and check that what a
 * hook leaves behind (stdout, stderr, state, log) is whole.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { LogRecordSchema } from "../../src/log/record.js";
import { SessionStateSchema, type SessionState } from "../../src/engine/session/state.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { hrNow, processContext, type HookContext } from "../../src/hooks/context.js";
import { PRE_TOOL_USE_DEADLINE_MS } from "../../src/engine/defaults.js";
import { eventSpec, HOOK_EVENT_NAMES, HOOK_EVENTS } from "../../src/hooks/events.js";
import { runServed } from "./served.js";
import { runHook, type HookIo } from "../../src/hooks/run.js";
import { waitForFinalMessage, waitForGoverningText } from "../../src/hooks/wait.js";

/**
 * The bundled hooks the processes run: a snapshot of dist/hooks taken once per
 * test file, so that a rebuild of dist/ while the suite runs (the hooks load
 * their chunks lazily) cannot pull files from under a running hook.
 */
let snapshot: string | undefined;
const SNAPSHOT_PREFIX = "utility-dist-snap-";
export function hookDist(): string {
  if (snapshot) return snapshot;
  // Test workers are often ended without an "exit" event: sweep snapshots left by earlier runs (an hour old).
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(SNAPSHOT_PREFIX)) continue;
    try {
      if (Date.now() - lstatSync(join(tmpdir(), name)).mtimeMs > 3_600_000) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // another run's, being removed
    }
  }
  const dir = realpathSync(mkdtempSync(join(tmpdir(), SNAPSHOT_PREFIX)));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  for (let attempt = 0; ; attempt++) {
    try {
      cpSync(join(PLUGIN_ROOT, "dist", "hooks"), join(dir, "hooks"), { recursive: true });
      cpSync(join(PLUGIN_ROOT, "dist", "server.js"), join(dir, "server.js"));
      // Each entry is one line that requires the shared runtime bundle beside it.
      for (const file of [...COMMAND_ENTRIES, "runtime"])
        if (!existsSync(join(dir, "hooks", `${file}.js`))) throw new Error(`dist/hooks/${file}.js is missing`);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      rmSync(join(dir, "hooks"), { recursive: true, force: true });
      spawnSync("sleep", ["0.5"]);
    }
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  snapshot = join(dir, "hooks");
  return snapshot;
}

/**
 * Every hook the suite drives, by the file name of its event: the served ones
 * through the plugin's hook server (dist/server.js, as Claude Code's mcp_tool
 * hooks call it), SessionEnd through its command entry (dist/hooks/<file>.js).
 */
export const ENTRIES = [
  { file: "pre-tool-use", event: "PreToolUse" },
  { file: "subagent-start", event: "SubagentStart" },
  { file: "stop", event: "Stop" },
  { file: "subagent-stop", event: "SubagentStop" },
  { file: "user-prompt-submit", event: "UserPromptSubmit" },
  { file: "user-prompt-expansion", event: "UserPromptExpansion" },
  { file: "pre-compact", event: "PreCompact" },
  { file: "session-end", event: "SessionEnd" },
] as const;
export type EntryFile = (typeof ENTRIES)[number]["file"];
export type HookEvent = (typeof ENTRIES)[number]["event"];
/** The events Claude Code runs as command hooks (src/hooks/events.ts); SessionStart's is tested on its own. */
const COMMAND_ENTRIES: readonly string[] = HOOK_EVENT_NAMES.flatMap((event) => {
  const wiring = HOOK_EVENTS[event].wiring;
  return wiring.runs === "command" ? [wiring.entry] : [];
});

// ---------------------------------------------------------------------------
// Processes

export interface Proc {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  pid: number;
}

export interface RunOptions {
  timeoutMs?: number;
  cwd?: string;
  /** Called once the child is spawned (e.g. to kill it halfway). */
  onSpawn?: (pid: number) => void;
  /**
   * A served event's input sent to the server as the JSON values it holds,
   * as a hook that is not Claude Code's own may send them, instead of as
   * Claude Code fills its templates (every value a string).
   */
  typed?: boolean;
  /** Run this TypeScript entry from the sources (through tsx) instead of the bundled hook: one that injects a test seam. */
  script?: string;
}

/**
 * Runs one hook the way Claude Code does: a served event through a fresh hook
 * server (`node dist/server.js`, one tools/call with the input as its
 * mcp_tool hook sends it: served.ts), a command event as `node
 * dist/hooks/<file>.js` with `stdin`.
 */
export function runEntry(file: EntryFile, stdin: string | Buffer, env: Record<string, string>, options: RunOptions = {}): Promise<Proc> {
  if (isServed(file) && !options.script) return runServed(hookDist(), EVENT_OF[file], stdin, env, options);
  return runCommand(file, stdin, env, options);
}

/** Whether Claude Code reaches this event through the hook server (else: a command hook). */
export function isServed(file: EntryFile): boolean {
  return !COMMAND_ENTRIES.includes(file);
}

function runCommand(file: EntryFile, stdin: string | Buffer, env: Record<string, string>, options: RunOptions): Promise<Proc> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const args = options.script ? ["--import", import.meta.resolve("tsx"), options.script] : [join(hookDist(), `${file}.js`)];
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? tmpdir(),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    options.onSpawn?.(child.pid!);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.on("error", () => {
      // the hook may exit before reading everything (it must not, but the test then sees why)
    });
    child.stdin.end(stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, pid: child.pid! });
    });
  });
}

/** Runs `count` jobs with at most `limit` at once (`limit` ≥ count: all at once). */
export async function pool<T>(count: number, limit: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await job(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

// ---------------------------------------------------------------------------
// Sandboxes

export interface Sandbox {
  /** Everything a test touches lives under here. */
  root: string;
  /** The plugin's data folder (UTILITY_DATA_DIR). */
  data: string;
  home: string;
  project: string;
  /** Where transcripts go: `<project slug>` under HOME, as Claude Code does. */
  transcripts: string;
  env(extra?: Record<string, string>): Record<string, string>;
  /** Writes a transcript file (lines joined with "\n", each terminated); returns its path. */
  transcript(name: string, lines: string[]): string;
  file(rel: string, content: string | Buffer): string;
  remove(): void;
}

export function sandbox(prefix = "utility-hard-"): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const data = join(root, "data");
  const home = join(root, "home");
  const project = join(root, "project");
  const transcripts = join(home, ".claude", "projects", "-project");
  for (const d of [home, project, transcripts]) mkdirSync(d, { recursive: true });
  const box: Sandbox = {
    root,
    data,
    home,
    project,
    transcripts,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      UTILITY_DATA_DIR: data,
      CLAUDE_PROJECT_DIR: project,
      ...extra,
    }),
    transcript: (name, lines) => box.file(relative(root, join(transcripts, name)), jsonl(lines)),
    file: (rel, content) => {
      const path = join(root, rel);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  };
  return box;
}

/** Every path under `dir` (not following links) with its type and, for files, a digest of its bytes. */
export function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(d, name);
      const st = lstatSync(path);
      const rel = relative(dir, path);
      if (st.isDirectory()) {
        out.set(rel, "dir");
        walk(path);
      } else if (st.isFile()) out.set(rel, `file ${createHash("sha1").update(readFileSync(path)).digest("hex")}`);
      else if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(path)}`);
      else out.set(rel, st.isFIFO() ? "fifo" : "other");
    }
  };
  walk(dir);
  return out;
}

/** The entries of `after` that are new or changed since `before`, and those gone. */
export function treeDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [path, desc] of after) if (before.get(path) !== desc) changes.push(`${before.has(path) ? "changed" : "added"} ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes.sort();
}

// ---------------------------------------------------------------------------
// Synthetic transcripts (the 2.1.x shape, docs/claude-code-facts.md)

let uuidCounter = 0;
const uuid = () => `uuid-${process.pid}-${++uuidCounter}`;

export function jsonl(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join("");
}

interface LineOptions {
  sidechain?: boolean;
  agentId?: string;
  /** A prompt line's promptId (default: promptIdOf its text, as hookInput gives its UserPromptSubmit). */
  promptId?: string;
}

/**
 * The prompt id Claude Code would give a prompt: here derived from its text,
 * so that a UserPromptSubmit (hookInput) and the prompt's line (line.prompt)
 * carry the same one, as in a real session (SPEC §2: the line shows what the
 * vouched prompt was).
 */
export function promptIdOf(prompt: string): string {
  return `prompt-${createHash("sha256").update(prompt).digest("hex").slice(0, 16)}`;
}

function envelope(type: string, options: LineOptions = {}) {
  return {
    parentUuid: null,
    isSidechain: options.sidechain ?? false,
    userType: "external",
    sessionId: "s",
    version: "2.1.328",
    type,
    uuid: uuid(),
    timestamp: "2026-02-10T21:11:56.846Z",
    ...(options.agentId ? { agentId: options.agentId } : {}),
  };
}

export type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };
export const text = (value: string): Block => ({ type: "text", text: value });
export const use = (id: string, name: string, input: unknown = {}): Block => ({ type: "tool_use", id, name, input });

export const line = {
  prompt: (value: string, options?: LineOptions) =>
    JSON.stringify({
      ...envelope("user", options),
      promptId: options?.promptId ?? promptIdOf(value),
      promptSource: "sdk",
      message: { role: "user", content: value },
    }),
  /** What Claude Code writes after the Skill tool or a slash command: the activated skill's folder. */
  skill: (folder: string, options?: LineOptions) =>
    JSON.stringify({
      ...envelope("user", options),
      isMeta: true,
      message: { role: "user", content: [{ type: "text", text: `Base directory for this skill: ${folder}\n\n# Skill body` }] },
    }),
  /** One assistant line per block, sharing message.id, as Claude Code writes them. */
  assistant: (messageId: string, blocks: Block[], options?: LineOptions) =>
    blocks.map((b) =>
      JSON.stringify({
        ...envelope("assistant", options),
        message: { id: messageId, role: "assistant", model: "claude-opus-5-5", content: [b] },
      }),
    ),
  result: (toolUseId: string, content: unknown, options?: LineOptions) =>
    JSON.stringify({
      ...envelope("user", options),
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content }] },
    }),
  userBlocks: (blocks: unknown[], options?: LineOptions) =>
    JSON.stringify({ ...envelope("user", options), message: { role: "user", content: blocks } }),
};

export function report(
  action: string,
  u: string,
  signals = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0",
  rationale = "a gap remains",
): string {
  return `Action: ${action}\nUtility: ${u}\nBreakdown: ${signals}\nRationale: "${rationale}"`;
}

/** A report whose arithmetic is right with the default λ (U = 0.7 − 1.0·0.12 − 0.5·0.6 − 0.8·0 = 0.28). */
export const GOOD = (action: string, rationale?: string) =>
  report(action, "0.28", "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0", rationale);

/** A skill folder whose SKILL.md has the given frontmatter. */
export function skillFolder(box: Sandbox, name: string, frontmatter: string): string {
  box.file(join("skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: test skill\n${frontmatter}\n---\n\n# ${name}\n`);
  return join(box.root, "skills", name);
}

// ---------------------------------------------------------------------------
// Hook inputs, from what Claude Code 2.1.328 sends (docs/claude-code-facts.md)

export interface InputBase {
  session: string;
  transcript: string;
  cwd?: string;
  agentId?: string;
  agentType?: string;
}

export function hookInput(entry: EntryFile, base: InputBase, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const common = {
    session_id: base.session,
    transcript_path: base.transcript,
    cwd: base.cwd ?? "/tmp",
    prompt_id: "eba2969c-0000-4000-8000-000000000000",
    permission_mode: "default",
    ...(base.agentId ? { agent_id: base.agentId, agent_type: base.agentType ?? "general-purpose" } : {}),
  };
  const tool = {
    effort: { level: "medium" },
    tool_name: "Bash",
    tool_input: { command: "echo one", description: "d" },
    tool_use_id: "toolu_01",
  };
  const stop = {
    effort: { level: "medium" },
    stop_hook_active: false,
    last_assistant_message: "Final answer.",
    background_tasks: [],
    session_crons: [],
  };
  const by: Record<EntryFile, Record<string, unknown>> = {
    "pre-tool-use": { ...common, ...tool, hook_event_name: "PreToolUse" },
    "subagent-start": {
      ...common,
      hook_event_name: "SubagentStart",
      agent_id: base.agentId ?? "ae5fab07137205403",
      agent_type: base.agentType ?? "general-purpose",
    },
    stop: { ...common, ...stop, hook_event_name: "Stop" },
    "subagent-stop": {
      ...common,
      ...stop,
      hook_event_name: "SubagentStop",
      agent_id: base.agentId ?? "ae5fab07137205403",
      agent_type: base.agentType ?? "general-purpose",
      agent_transcript_path: join(
        base.transcript.replace(/\.jsonl$/, ""),
        "subagents",
        `agent-${base.agentId ?? "ae5fab07137205403"}.jsonl`,
      ),
    },
    "user-prompt-submit": {
      ...common,
      prompt_id: promptIdOf(typeof extra.prompt === "string" ? extra.prompt : "probe please"),
      hook_event_name: "UserPromptSubmit",
      prompt: "probe please",
    },
    "user-prompt-expansion": {
      ...common,
      hook_event_name: "UserPromptExpansion",
      expansion_type: "slash_command",
      command_name: "utility:utility",
      command_args: "status",
      command_source: "plugin",
      prompt: "/utility:utility status",
    },
    "pre-compact": { ...common, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "" },
    "session-end": { ...common, hook_event_name: "SessionEnd", reason: "other" },
  };
  return { ...by[entry], ...extra };
}

// ---------------------------------------------------------------------------
// What a hook leaves behind

/** stdout is nothing, or one line of JSON Claude Code accepts from this event; never "allow". */
export function expectValidOutput(event: string, stdout: string): Record<string, any> | undefined {
  if (stdout === "") return undefined;
  expect(
    stdout.endsWith("\n") && stdout.indexOf("\n") === stdout.length - 1,
    `one line of output: ${JSON.stringify(stdout.slice(0, 200))}`,
  ).toBe(true);
  const out = JSON.parse(stdout) as Record<string, any>;
  if (event === "PreToolUse") {
    // A decision or a hint; a line for the user (systemMessage) when the transcript is in trouble, with or without a refusal.
    const h = out.hookSpecificOutput;
    for (const key of Object.keys(out)) expect(["hookSpecificOutput", "systemMessage"]).toContain(key);
    if (out.systemMessage !== undefined) expect(typeof out.systemMessage).toBe("string");
    if (h === undefined) expect(typeof out.systemMessage).toBe("string");
    else {
      expect(h.hookEventName).toBe("PreToolUse");
      if (h.permissionDecision !== undefined) {
        expect(h.permissionDecision).toBe("deny");
        expect(typeof h.permissionDecisionReason).toBe("string");
      } else expect(typeof h.additionalContext).toBe("string");
    }
  } else if (event === "Stop" || event === "SubagentStop") {
    // A block with its reason, or (the transcript cannot be read) a line for the user, never both.
    if (out.systemMessage !== undefined) expect(out).toEqual({ systemMessage: expect.any(String) });
    else expect(out).toEqual({ decision: "block", reason: expect.any(String) });
  } else if (event === "UserPromptExpansion") {
    // `/utility <argument>` answered on screen: a block with the answer as its reason, the prompt left out.
    expect(out).toEqual({
      decision: "block",
      reason: expect.any(String),
      hookSpecificOutput: { hookEventName: "UserPromptExpansion", suppressOriginalPrompt: true },
    });
  } else {
    throw new Error(`${event} printed ${stdout.slice(0, 200)}; it never prints anything`);
  }
  return out;
}

/** At most one line on stderr, and no stack trace. */
export function expectOneLineStderr(stderr: string): void {
  expect(stderr.split("\n").filter((l) => l !== "").length, `one line on stderr: ${stderr.slice(0, 500)}`).toBeLessThanOrEqual(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/node:internal|\.js:\d+/);
}

export interface Whole {
  states: Record<string, SessionState>;
  logs: Record<string, number>;
  errors: number;
}

/**
 * Everything in the data folder parses: every state file against its schema,
 * every log line against the record schema, every error line as JSON; no lock
 * or temp file is left. Returns what is there, to compare with later.
 */
export function expectDataWhole(data: string): Whole {
  const whole: Whole = { states: {}, logs: {}, errors: 0 };
  if (!existsSync(data)) return whole;
  for (const name of readdirSync(data)) {
    // `pruned-at`: when SessionEnd last pruned old logs (src/hooks/retention.ts); `servers`: each hook server's marker;
    // `statusline`: each session's status line (src/statusline/line-file.ts).
    expect(["state", "sessions", "errors.jsonl", "pruned-at", "servers", "statusline"]).toContain(name);
  }
  const lineDir = join(data, "statusline");
  if (existsSync(lineDir))
    for (const name of readdirSync(lineDir)) expect(name, `only line files in ${lineDir}`).toMatch(/^[A-Za-z0-9._-]+\.txt$/);
  const stateDir = join(data, "state");
  if (existsSync(stateDir)) {
    for (const name of readdirSync(stateDir)) {
      expect(name, `only state files in ${stateDir}`).toMatch(/^[A-Za-z0-9._-]+\.json$/);
      const parsed = SessionStateSchema.safeParse(JSON.parse(readFileSync(join(stateDir, name), "utf8")));
      expect(parsed.success, `${name} has the state's shape: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBe(true);
      whole.states[name.replace(/\.json$/, "")] = parsed.data!;
    }
  }
  const logDir = join(data, "sessions");
  if (existsSync(logDir)) {
    for (const name of readdirSync(logDir)) {
      expect(name).toMatch(/^[A-Za-z0-9._-]+\.jsonl$/);
      const lines = readFileSync(join(logDir, name), "utf8").split("\n");
      expect(lines.pop(), `${name} ends with a newline`).toBe("");
      for (const l of lines) expect(LogRecordSchema.safeParse(JSON.parse(l)).success, `a log record: ${l.slice(0, 300)}`).toBe(true);
      whole.logs[name.replace(/\.jsonl$/, "")] = lines.length;
    }
  }
  const errors = join(data, "errors.jsonl");
  if (existsSync(errors)) {
    const lines = readFileSync(errors, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    for (const l of lines) JSON.parse(l);
    whole.errors = lines.length;
  }
  return whole;
}

export function logRecords(data: string, session: string): Array<Record<string, any>> {
  const file = join(data, "sessions", `${session}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

export function readState(data: string, session: string): SessionState | undefined {
  const file = join(data, "state", `${session}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SessionState) : undefined;
}

// ---------------------------------------------------------------------------
// The handlers in-process, through the same runner the entries use

/** A context like the real one, but waiting at most `waitMs` for a call's transcript line or a Stop's final message. */
export function quickContext(waitMs = 15): (env: HookIo["env"]) => HookContext {
  const wait = { timeoutMs: waitMs, intervalMs: Math.min(5, waitMs) };
  return (env) => ({
    ...processContext(env),
    waitForText: (ref, id) => waitForGoverningText(ref, id, wait),
    waitForFinal: (ref, finalText) => waitForFinalMessage(ref, finalText, wait),
  });
}

/**
 * The real context of a hook that started long enough ago that its own
 * deadline (PRE_TOOL_USE_DEADLINE_MS from its start, as Claude Code's timeout
 * counts from the spawn) is `remainingMs` away: to see a hook reach it without
 * waiting the whole deadline, and without a setting in the product.
 */
export function nearDeadlineContext(remainingMs: number): (env: HookIo["env"]) => HookContext {
  return (env) => processContext(env, hrNow() - (PRE_TOOL_USE_DEADLINE_MS - remainingMs));
}

/** An in-process run as a Proc (its time measured here), for tests written against hook processes. */
export async function runInProcessAsProc(
  entry: EntryFile,
  stdin: string,
  env: Record<string, string>,
  makeContext: (env: HookIo["env"]) => HookContext,
): Promise<Proc> {
  const started = Date.now();
  const run = await runInProcess(entry, stdin, env, makeContext);
  return { code: 0, signal: null, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - started, pid: process.pid };
}

export interface InProcess {
  stdout: string;
  stderr: string;
}

/** Runs an entry's handler in this process, exactly as its entry script does, with a fake stdin/stdout/stderr. */
export async function runInProcess(
  entry: EntryFile,
  stdin: string | Buffer,
  env: Record<string, string>,
  makeContext = quickContext(),
): Promise<InProcess> {
  let stdout = "";
  let stderr = "";
  const io: HookIo = {
    readStdin: () => (typeof stdin === "string" ? Buffer.from(stdin) : stdin),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
  };
  // The same schema and handler the hook server and the command entries answer from.
  const { schema, handler } = eventSpec(EVENT_OF[entry]);
  await runHook(EVENT_OF[entry], schema, handler, io, makeContext);
  return { stdout, stderr };
}

export const EVENT_OF: Record<EntryFile, HookEvent> = Object.fromEntries(ENTRIES.map((e) => [e.file, e.event])) as Record<
  EntryFile,
  HookEvent
>;
