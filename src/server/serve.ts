/**
 * The warm hook server's work: each `tools/call` from an `mcp_tool` hook is
 * answered by its event's schema and handler (src/hooks/events.ts), with a
 * context made for that call. Calls are answered one at a time, in arrival
 * order: the handlers wait synchronously (for the transcript, for the state
 * lock), so two at once in one process would only wait on each other, and
 * the store refuses a second transaction while one holds its lock.
 */
import { errorLine } from "../state/file-error.js";
import { dataDir } from "../state/paths.js";
import { DEFAULT_LOCK, type LockOptions } from "../state/lock-file.js";
import { FileStateStore } from "../state/store.js";
import { hrNow, lockWithin, processContext } from "../hooks/context.js";
import type { Deadline } from "../hooks/deadline.js";
import { eventSpec } from "../hooks/events.js";
import { answerHook, recordError, validateHookInput } from "../hooks/run.js";
import { eventOfTool, hookInputOf, toolResultOf } from "./hook-call.js";
import { userSettings, type HookSettings } from "../hooks/settings.js";
import { onDemandSha256 } from "../hash/on-demand-sha256.js";
import type { ToolCall, ToolResult } from "./protocol.js";
import { isSafeId } from "../state/paths.js";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { statusLine } from "../statusline/line.js";
import { writeLineFile } from "../statusline/line-file.js";
import { liveShim } from "../otlp/shim.js";
import type { LiveExport } from "../otlp/live.js";
import { defaultDeveloper } from "../export/developer.js";
import { clickHouseShim } from "../clickhouse/shim.js";
import type { ClickHouseLive } from "../clickhouse/live.js";

type Env = Record<string, string | undefined>;

/** Claude Code marks a call the model made with this key in `_meta`; a hook's call carries none. */
export const MODEL_CALL_META = "claudecode/toolUseId";

export interface HookServer {
  callTool(call: ToolCall): Promise<ToolResult>;
  /**
   * Writes what the answers sent so far left for later (an ungated call's
   * state, log and ledger lines: src/hooks/pre-tool-use.ts). The transport
   * calls it once an answer is sent; each call runs it first anyway.
   */
  settle(): void;
  /** Sends what the OTLP and ClickHouse exports have left, waiting at most `ms` (the process is ending). */
  close(ms: number): Promise<void>;
}

export function hookServer(env: Env, now: () => number = hrNow): HookServer {
  let current: Deadline | undefined;
  // One store for the server's life, so the state it wrote last is not validated again (src/state/store.ts).
  const store = new FileStateStore(
    dataDir(env),
    lockUntil(() => current),
  );
  let queue: Promise<unknown> = Promise.resolve();
  let answering = 0;
  const unwritten: Array<() => void> = [];
  const later = (work: () => void) => void unwritten.push(work);
  // The server's environment is fixed when Claude Code starts it: the user's settings are read once, by the first
  // handler that needs them (inside it, so that trouble reading them is that handler's to answer).
  let read: HookSettings | undefined;
  const settings = () => (read ??= userSettings(env));
  const sha256 = onDemandSha256();
  const exports = liveExports(env, later, settings);
  const writeLine = lineWriter(env, store, settings, later, exports);

  function settle(): void {
    for (let work = unwritten.shift(); work; work = unwritten.shift()) {
      try {
        work();
      } catch (error) {
        // The call was answered already; an ungated scope is never blocked by the plugin's own trouble.
        recordError(dataDir(env), "PreToolUse", `utility PreToolUse hook: after its answer, ${errorLine(error)}`);
      }
    }
  }

  async function answer(event: NonNullable<ReturnType<typeof eventOfTool>>, args: Record<string, unknown>, arrived: number) {
    settle();
    const ctx = processContext(env, arrived, { store, later, settings, ...(sha256 ? { sha256 } : {}) });
    current = ctx.deadline;
    try {
      const { schema, handler } = eventSpec(event);
      const input = validateHookInput({ ...hookInputOf(args), hook_event_name: event }, schema);
      const answered = await answerHook(event, handler, input, ctx);
      writeLine(event, input as Record<string, unknown>);
      // What a command hook would print on stderr, where nobody reads it by default: the error log keeps it.
      if (answered.trouble) recordError(ctx.dataDir, event, answered.trouble);
      return toolResultOf(answered);
    } catch (error) {
      // As a command hook whose input is unusable: one line, no decision (the handlers decide fail-closed themselves).
      recordError(ctx.dataDir, event, `utility ${event} hook: ${errorLine(error)}`);
      return toolResultOf({});
    } finally {
      current = undefined;
    }
  }

  return {
    settle,
    close: (ms) => closeAfter(settle, exports, ms),
    callTool(call) {
      const checked = checkCall(call, dataDir(env));
      if ("answer" in checked) return Promise.resolve(checked.answer);
      const { event } = checked;
      const arrived = now();
      // A call that comes while another is answered waits until that answer has gone out: the transport writes it
      // some microtasks after it resolves, and this call's first act (settle: the last call's writes) would run first.
      const queued = answering++ > 0;
      const next = queue
        .then(() => (queued ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined))
        .then(() => answer(event, call.arguments, arrived))
        .finally(() => answering--);
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** The live exports, each off unless its setting is set (SPEC §17). */
type LiveExports = ReadonlyArray<LiveExport | ClickHouseLive>;

/** The writes left, then what the exports have left, together, for at most `ms`. */
async function closeAfter(settle: () => void, exports: LiveExports, ms: number): Promise<void> {
  settle();
  await Promise.all(exports.map((e) => e.close(ms)));
}

/**
 * OTLP, off unless otlp_endpoint is set: then the SDK is loaded with the first records (src/otlp/shim.ts);
 * ClickHouse, off unless clickhouse_url is set: then its sender is loaded with the first send (src/clickhouse/shim.ts).
 */
function liveExports(env: Env, later: (work: () => void) => void, settings: () => HookSettings): LiveExports {
  const options = {
    later,
    developer: defaultDeveloper(env),
    prices: () => withOverride(DEFAULT_PRICES, settings().prices),
    trouble: (message: string) => recordError(dataDir(env), "server", `utility hook server: ${message}`),
  };
  return [liveShim(env, options), clickHouseShim(env, options)].filter((e) => e !== undefined);
}

/** Lock waits that end at the deadline of the call being answered, if any. */
function lockUntil(deadline: () => Deadline | undefined): LockOptions {
  return {
    staleMs: DEFAULT_LOCK.staleMs,
    get timeoutMs() {
      const current = deadline();
      return current ? lockWithin(current).timeoutMs : DEFAULT_LOCK.timeoutMs;
    },
  };
}

/**
 * The session's status line, as it stands after an answer and the writes it
 * left: queued after them, so written when the answer is out (never on the
 * user's path), for the statusLine command (plugin/statusline.sh) to print.
 * Nothing for an id that may not name a file.
 */
function lineWriter(
  env: Env,
  store: FileStateStore,
  settings: () => HookSettings,
  later: (work: () => void) => void,
  exports: LiveExports,
) {
  return (event: string, input: Record<string, unknown>): void => {
    const sessionId = input.session_id;
    // What the live exports send, once the answer is out (none unless otlp_endpoint or clickhouse_url is set).
    for (const live of exports) live.after(event, input);
    if (typeof sessionId !== "string" || !isSafeId(sessionId)) return;
    later(() => {
      try {
        const { budgets, session, prices } = settings();
        const line = statusLine(store.read(sessionId), {
          prices: withOverride(DEFAULT_PRICES, prices),
          userBudgets: budgets,
          ...(session ? { sessionBudgets: session } : {}),
        });
        const claudePid = Number(env.CLAUDE_PID) || 0;
        writeLineFile(dataDir(env), sessionId, { serverPid: process.pid, claudePid, writtenAt: new Date(), line });
      } catch (error) {
        // The status line then says its line is old or missing (plugin/statusline.sh); the answers are not touched.
        recordError(dataDir(env), "server", `utility hook server: the status line cannot be written (${errorLine(error)})`);
      }
    });
  };
}

/** The event a call answers, or the answer to a call no route takes: the model's own, an unknown tool, a hook not the plugin's. */
function checkCall(call: ToolCall, dir: string): { event: NonNullable<ReturnType<typeof eventOfTool>> } | { answer: ToolResult } {
  if (call.meta && MODEL_CALL_META in call.meta)
    return { answer: refusal(`${call.name} answers Claude Code's hooks only; the model may not call it.`) };
  const event = eventOfTool(call.name);
  if (!event) return { answer: refusal(`no hook tool named ${JSON.stringify(call.name)}`) };
  const named = call.arguments.hook_event_name;
  return named === event ? { event } : { answer: notOwn(dir, event, named) };
}

/**
 * A call whose `hook_event_name` is not its tool's event: the plugin's
 * hooks.json sends `${hook_event_name}`, which Claude Code fills with the
 * event that fired, so this is a hook someone else registered (a skill's, a
 * repository's) that fired on another event or wrote the field itself. No
 * decision, nothing changed; the error log says so.
 */
function notOwn(dir: string, event: string, named: unknown): ToolResult {
  const found = JSON.stringify(named ?? "");
  recordError(
    dir,
    event,
    `utility ${event} hook: hook_event_name is ${found}, expected ${event}: not the plugin's own hook; no decision, nothing changed`,
  );
  return toolResultOf({});
}

function refusal(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
