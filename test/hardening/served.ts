/**
 * A served event, run the way Claude Code runs it: a hook server
 * (`node dist/server.js`) started for the call, `initialize`, then one
 * `tools/call` whose arguments are the hook input as the event's mcp_tool
 * hook sends it (each field of its `${field}` templates filled as Claude Code
 * fills them: docs/claude-code-facts.md). The answer comes back in the shape
 * a command hook's would: the decision on stdout, the trouble the server put
 * in the error log (a command hook's stderr) on stderr.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { servedWiring, type HookEvent } from "../../src/hooks/events.js";
import { dataDir, errorLogPath } from "../../src/state/paths.js";
import type { Proc, RunOptions } from "./support.js";

/** A field as Claude Code fills its `${field}` template: a string as it is, objects as JSON, booleans as words, absent as "". */
export function templateValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The tools/call arguments for this hook input: as Claude Code fills the
 * event's templates (its declared fields, each a string), or, `typed`, the
 * input as it is, as any other caller may send it: a JSON value of any type,
 * or text that is no JSON at all (the server reads a non-object as none).
 */
export function servedArguments(event: HookEvent, stdin: string | Buffer, typed = false): unknown {
  const wiring = servedWiring(event);
  if (!wiring) throw new Error(`${event} is not served`);
  const text = Buffer.isBuffer(stdin) ? stdin.toString("utf8") : stdin;
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    if (typed) return text;
    throw new Error(`${event}: not JSON; Claude Code sends an mcp_tool hook its input's fields, never raw bytes`);
  }
  if (typed) return input;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new Error(`${event}: not a JSON object; Claude Code's hook input always is one`);
  const fields = input as Record<string, unknown>;
  return Object.fromEntries(wiring.fields.map((field) => [field, templateValue(fields[field])]));
}

function errorLines(env: Record<string, string>): string[] {
  const file = errorLogPath(dataDir(env));
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** The error log's lines this server wrote for this event since `before`: what it said instead of a command hook's stderr. */
function troubleSince(env: Record<string, string>, before: number, event: string, pid: number): string {
  const reasons = errorLines(env)
    .slice(before)
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as { event?: string; reason?: string; pid?: number };
        return record.pid === pid && record.event === event && record.reason ? [record.reason] : [];
      } catch {
        return [line];
      }
    });
  return reasons.map((r) => `${r}\n`).join("");
}

/** What one hook server answered to a batch of calls sent at once: each call's stdout, and the server's trouble and exit. */
export interface ServedBatch {
  stdouts: string[];
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  pid: number;
}

/**
 * One hook server started for `stdins.length` calls of `event`, all sent at
 * once (as Claude Code sends the hooks of parallel tool calls), answered in
 * the server's order; it ends once every call is answered.
 */
export function runServedBatch(
  dist: string,
  event: HookEvent,
  stdins: ReadonlyArray<string | Buffer>,
  env: Record<string, string>,
  options: RunOptions = {},
): Promise<ServedBatch> {
  const calls = stdins.map((stdin) => servedArguments(event, stdin, options.typed));
  const before = errorLines(env).length;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dist, "..", "server.js")], {
      cwd: options.cwd ?? tmpdir(),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    options.onSpawn?.(child.pid!);
    const stdouts: string[] = calls.map(() => "");
    let answered = 0;
    let buffer = "";
    let serverStderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (serverStderr += d));
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, nl)) as { id?: number; result?: { content?: { text: string }[] } };
        buffer = buffer.slice(nl + 1);
        if (typeof message.id !== "number" || message.id < FIRST_CALL) continue;
        const text = message.result?.content?.[0]?.text ?? "";
        stdouts[message.id - FIRST_CALL] = text === "{}" ? "" : `${text}\n`;
        if (++answered === calls.length) child.stdin.end();
      }
    });
    child.stdin.on("error", () => undefined);
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.328" } },
    });
    send({ method: "notifications/initialized" });
    const tool = servedWiring(event)!.tool;
    for (const [i, args] of calls.entries()) send({ id: FIRST_CALL + i, method: "tools/call", params: { name: tool, arguments: args } });
    // A kill switch for a server that never answers, never shorter than a cold server's start under load.
    const timer = setTimeout(() => child.kill("SIGKILL"), Math.max(options.timeoutMs ?? 0, 30_000));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = troubleSince(env, before, event, child.pid!) + serverStderr;
      resolve({ stdouts, stderr, code, signal, ms: Date.now() - started, pid: child.pid! });
    });
  });
}

const FIRST_CALL = 2;

/** One call through its own hook server, in the shape a command hook's run has. */
export async function runServed(
  dist: string,
  event: HookEvent,
  stdin: string | Buffer,
  env: Record<string, string>,
  options: RunOptions,
): Promise<Proc> {
  const { stdouts, ...rest } = await runServedBatch(dist, event, [stdin], env, options);
  return { ...rest, stdout: stdouts[0]! };
}
