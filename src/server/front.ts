/**
 * The hook server's front (dist/server.js): what Claude Code waits for before
 * the session's first model request. In `claude -p` with a prompt argument
 * Claude Code holds the first turn until every MCP server has connected
 * (docs/claude-code-facts.md, "mcp_prewait"), so the server answers
 * `initialize`, `tools/list` and `ping` from this small entry, which loads
 * nothing but the protocol, and loads the handlers' runtime
 * (dist/hooks/runtime.js, about 230 KB to compile) only once it has answered
 * them: right after `tools/list`, or at the first `tools/call` if that comes
 * first. A call that comes while the runtime loads waits for it, in order.
 * Nothing but protocol lines may reach stdout.
 */
import { answerLine, LineSplitter, type ServerInfo, type ToolCall, type ToolResult } from "./protocol.js";
import { dataDir } from "../state/paths.js";
import { pruneMarkers, writeMarker } from "../state/server-marker.js";
import { processAlive } from "../state/process-alive.js";

/** What the runtime gives the front once loaded (src/server/main.ts, `attach`). */
export interface Attached {
  callTool(call: ToolCall): Promise<ToolResult>;
  /** Called after each answer went out (an ungated call's writes, then the warm-up after the first). */
  settle(): void;
}

export interface FrontOptions {
  /** Loads the runtime and starts the server's own work, given the trouble met before it (for the error log); synchronous. */
  load(troubles: string[]): Attached;
  /** Says the server started, once `initialize` is answered (default: nothing); returns its trouble, if any. */
  mark?(): string | undefined;
  /** Where the lines go (default: stdout). */
  write?(line: string): void;
  /** Trouble outside a call (default: stderr, since the error log needs the runtime). */
  trouble?(message: string): void;
  /** When Claude Code sends no `tools/list`, the runtime loads this long after `initialize` (ms). */
  loadAfterMs?: number;
}

export const SERVER_INFO: ServerInfo = { name: "utility-hooks", version: "0.1.0" };

export interface Front {
  /** Feeds a chunk of stdin. */
  push(chunk: Buffer): void;
  /** Whether the runtime is loaded. */
  loaded(): boolean;
}

export function front(options: FrontOptions): Front {
  const write = options.write ?? ((line: string) => void process.stdout.write(line));
  const trouble = options.trouble ?? ((message: string) => void process.stderr.write(`utility hook server: ${message}\n`));
  let attached: Attached | undefined;
  const troubles: string[] = [];
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const load = (): Attached => {
    if (fallback) clearTimeout(fallback);
    return (attached ??= options.load(troubles.splice(0)));
  };
  const loadSoon = () => setImmediate(() => void tryLoad());
  const tryLoad = () => {
    try {
      load();
    } catch (error) {
      trouble(`cannot load its runtime (${(error as Error).message})`);
    }
  };
  const lines = new LineSplitter();
  // Answers go out in the order their lines came: a call waits for the one before it (the runtime answers one at a time anyway).
  let queue: Promise<unknown> = Promise.resolve();
  const answer = (line: string) => {
    const method = methodOf(line);
    const callTool = (call: ToolCall) => load().callTool(call);
    const reply = async () => {
      const answered = await answerLine(line, SERVER_INFO, callTool);
      if (answered) write(`${JSON.stringify(answered)}\n`);
      if (method === "tools/call") attached?.settle();
      // The handlers' runtime loads once what Claude Code waits for at connect is out.
      if (method === "tools/list" && !attached) loadSoon();
      else if (method === "initialize" && !attached && !fallback) {
        const trouble = options.mark?.();
        if (trouble) troubles.push(trouble);
        fallback = setTimeout(tryLoad, options.loadAfterMs ?? 250);
      }
    };
    const next = queue.then(reply, reply);
    queue = next.catch((error: unknown) => trouble(`a message went unanswered (${(error as Error).message})`));
  };
  return {
    push(chunk) {
      for (const line of lines.push(chunk)) answer(line);
    },
    loaded: () => attached !== undefined,
  };
}

/** The method a line names, if it is a JSON-RPC message with one. */
function methodOf(line: string): string | undefined {
  try {
    const message = JSON.parse(line) as { method?: unknown };
    return typeof message?.method === "string" ? message.method : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ends with Claude Code: on stdin's end, a signal or a closed stdout, from the
 * process's first moment (the runtime adds its own handler of uncaught
 * exceptions once loaded).
 */
export function endWithClaudeCode(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
  process.stdout.on("error", () => process.exit(0));
  process.stdin.on("end", () => process.exit(0));
}

/**
 * Says that a server started for this Claude Code (the SessionStart checks
 * look: src/hooks/server-check.ts), and clears the markers of ones gone; a few
 * small writes, once `initialize` is answered. Claude Code gives an MCP
 * server no CLAUDE_PID: its parent is Claude Code (src/server/env.ts).
 */
export function markStarted(env: Record<string, string | undefined>, parentPid: number): string | undefined {
  const dir = dataDir(env);
  const claudePid = Number(env.CLAUDE_PID || parentPid);
  try {
    writeMarker(dir, { pid: process.pid, claudePid, startedAt: new Date().toISOString() });
    pruneMarkers(dir, claudePid, processAlive);
    return undefined;
  } catch (error) {
    // Only the SessionStart checks read it; the hooks are answered all the same.
    return `cannot write its marker (${String((error as Error).message).split("\n")[0]})`;
  }
}
