/**
 * Warms the server's code before the session's first tool call. V8 compiles a
 * function when it first runs and optimizes it once it has run often: a fresh
 * server answered its first PreToolUse in about 14 ms, its second in 5, and
 * the next ones in about 3, against about 2 once warm (docs/speed.md). So,
 * while the session starts, a few dozen calls of a made-up session (one
 * ungated, one in a gated skill) are answered by a server of their own, in a
 * private temporary folder, one per turn of the event loop: a real call
 * waits for one of them at most. Nothing of the user's is read or written;
 * the folder is removed at the end, and so are folders left by warm-ups
 * whose server was killed before it could remove its own.
 */
import { appendFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_EVENTS } from "../hooks/events.js";
import { answerLine } from "./protocol.js";
import { hookServer } from "./serve.js";
import { processAlive } from "../state/process-alive.js";
import { errorLine } from "../state/file-error.js";

export interface WarmUp {
  /** How many calls to answer (half in each session). */
  calls: number;
  /** Called once, when it ended (with the trouble, if it failed). */
  done?(trouble?: unknown): void;
  /** Sees the private folder before it is removed (tests: what the calls wrote there). */
  inspect?(folder: string): void;
  /** Where its folder goes (default: the system's temporary folder). */
  tmp?: string;
  /** Whether a pid runs (default: `processAlive`). */
  alive?(pid: number): boolean;
}

/** A warm-up's folder: `utility-warm-up-<the server's pid>-<random>`. */
const FOLDER_PREFIX = "utility-warm-up-";
const FOLDER_PID = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`);

/**
 * Removes the folders of warm-ups whose server no longer runs: one killed
 * with SIGKILL while it warmed up (its exit handler never ran). A folder
 * whose pid runs is left, even if the pid was reused: it costs some disk.
 * Only a folder this user's server made is removed: a removal goes by path,
 * so in a folder someone else can write, a link swapped in while it runs
 * would be followed (another user, or a model, planting a "leftover").
 */
function removeLeftovers(tmp: string, alive: (pid: number) => boolean): void {
  const uid = process.getuid?.();
  if (uid === undefined || !noOneElseRenames(tmp)) return;
  for (const name of readdirSync(tmp)) {
    const pid = Number(FOLDER_PID.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const folder = join(tmp, name);
    if (madeByMkdtemp(folder, uid)) rmSync(folder, { recursive: true, force: true });
  }
}

/** removeLeftovers, its trouble returned to be told as the warm-up's. */
function leftoversTrouble(tmp: string, alive: (pid: number) => boolean): Error | undefined {
  try {
    removeLeftovers(tmp, alive);
    return undefined;
  } catch (error) {
    return new Error(`while removing the folders of killed warm-ups: ${errorLine(error)}`);
  }
}

/** As mkdtemp makes a folder: a folder (not a link), this user's, that no one else may enter or write. */
function madeByMkdtemp(folder: string, uid: number): boolean {
  const stats = lstatSync(folder, { throwIfNoEntry: false });
  return stats !== undefined && stats.isDirectory() && stats.uid === uid && (stats.mode & 0o777) === 0o700;
}

/** Others cannot rename this user's entries in `dir`: they cannot write it, or it is sticky (/tmp). */
function noOneElseRenames(dir: string): boolean {
  const { mode } = statSync(dir);
  return (mode & 0o022) === 0 || (mode & 0o1000) !== 0;
}

const WARM_UP_INFO = { name: "utility-hooks-warm-up", version: "0" };
const REPORT = 'Action: retrieve\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Read it."';

/** Transcript lines in Claude Code's shape: just the fields the plugin reads. */
const line = (type: string, fields: Record<string, unknown>) =>
  `${JSON.stringify({ type, uuid: `warm-${Math.random()}`, timestamp: new Date(0).toISOString(), isSidechain: false, ...fields })}\n`;
const assistant = (id: string, content: unknown[]) =>
  line("assistant", { message: { model: "claude-opus-4-6", id, type: "message", role: "assistant", content } });
const user = (content: unknown, extra: Record<string, unknown> = {}) => line("user", { message: { role: "user", content }, ...extra });

interface Made {
  folder: string;
  sessions: { id: string; transcript: string }[];
}

/** The made-up sessions: an ungated one, and one whose skill opts in (utility_gated) and has loaded. */
function makeSessions(tmp: string): Made {
  const folder = realpathSync(mkdtempSync(join(tmp, `${FOLDER_PREFIX}${process.pid}-`)));
  const skill = join(folder, "skills", "warm");
  mkdirSync(skill, { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: warm\ndescription: Warm-up.\nutility_gated: true\nutility_max_steps: 1000\n---\n\n# Warm\n",
  );
  const ungated = { id: "warm-up-ungated", transcript: join(folder, "ungated.jsonl") };
  const gated = { id: "warm-up-gated", transcript: join(folder, "gated.jsonl") };
  writeFileSync(ungated.transcript, user("warm up"));
  writeFileSync(
    gated.transcript,
    user("warm up") +
      assistant("msg_skill", [{ type: "tool_use", id: "toolu_skill", name: "Skill", input: { skill: "warm" } }]) +
      user([{ type: "tool_result", tool_use_id: "toolu_skill", content: "Launching skill: warm" }]) +
      user([{ type: "text", text: `Base directory for this skill: ${skill}\n\n# Warm` }], { isMeta: true }),
  );
  return { folder, sessions: [ungated, gated] };
}

/** One PreToolUse call's arguments, as the hooks.json templates fill them. */
function callArguments(session: { id: string; transcript: string }, cwd: string, n: number, id: string): Record<string, string> {
  const values: Record<string, string> = {
    hook_event_name: "PreToolUse",
    session_id: session.id,
    transcript_path: session.transcript,
    cwd,
    permission_mode: "default",
    tool_name: "Read",
    tool_input: JSON.stringify({ file_path: join(cwd, `file-${n % 5}.txt`) }),
    tool_use_id: id,
  };
  return Object.fromEntries(HOOK_EVENTS.PreToolUse.wiring.fields.map((field) => [field, values[field] ?? ""]));
}

/** Starts the warm-up; it runs in the background, a call per turn of the event loop. */
export function warmUp(options: WarmUp): void {
  const tmp = options.tmp ?? tmpdir();
  let made: Made | undefined;
  const removeFolder = () => made && rmSync(made.folder, { recursive: true, force: true });
  // A server stopped while it warms up (Claude Code ends it with the session) leaves no folder behind.
  process.once("exit", removeFolder);
  let ended = false;
  const end = (trouble?: unknown) => {
    if (ended) return;
    ended = true;
    process.removeListener("exit", removeFolder);
    try {
      if (made) options.inspect?.(made.folder);
    } finally {
      removeFolder();
      const left = leftoversTrouble(tmp, options.alive ?? processAlive);
      options.done?.(trouble ?? left);
    }
  };
  try {
    made = makeSessions(tmp);
  } catch (error) {
    end(error);
    return;
  }
  const { folder, sessions } = made;
  const server = hookServer({ PATH: process.env.PATH, HOME: folder, UTILITY_DATA_DIR: join(folder, "data") });
  const step = async (n: number): Promise<void> => {
    if (n >= options.calls) return end();
    const session = sessions[n % sessions.length]!;
    const id = `toolu_warm_${n}`;
    appendFileSync(
      session.transcript,
      assistant(`msg_${n}`, [{ type: "text", text: REPORT }]) +
        assistant(`msg_${n}`, [{ type: "tool_use", id, name: "Read", input: { file_path: join(folder, `file-${n % 5}.txt`) } }]),
    );
    // Through the protocol as a real call comes (a line of JSON-RPC in, one out), not to stdout.
    const request = {
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: HOOK_EVENTS.PreToolUse.wiring.tool, arguments: callArguments(session, folder, n, id) },
    };
    JSON.stringify(await answerLine(JSON.stringify(request), WARM_UP_INFO, (call) => server.callTool(call)));
    server.settle();
    appendFileSync(session.transcript, user([{ type: "tool_result", tool_use_id: id, content: `contents ${n % 5}` }]));
    setImmediate(() => void step(n + 1).catch(end));
  };
  setImmediate(() => void step(0).catch(end));
}
