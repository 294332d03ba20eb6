/**
 * The little of the Model Context Protocol the hook server speaks: JSON-RPC
 * 2.0, one message per line on stdin and stdout (the stdio transport).
 * Claude Code 2.1.328 first sends `server/discover` (a newer protocol), and
 * on "method not found" falls back to `initialize`; then `tools/list` and,
 * for each `mcp_tool` hook, `tools/call` (docs/claude-code-facts.md).
 *
 * The server lists no tools: a listed tool is offered to the model (behind
 * ToolSearch) and the model could call it, while a hook may call a tool the
 * list does not name.
 */

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** `params._meta`: Claude Code marks a model's own call with `claudecode/toolUseId`; a hook's call has none. */
  meta: Record<string, unknown> | undefined;
}

export interface ToolResult {
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

export interface ServerInfo {
  name: string;
  version: string;
}

type Id = string | number | null;
type Response = { jsonrpc: "2.0"; id: Id } & ({ result: unknown } | { error: { code: number; message: string } });

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const error = (id: Id, code: number, message: string): Response => ({ jsonrpc: "2.0", id, error: { code, message } });

/** One line from Claude Code → the line to answer with, if any (notifications get none). */
export async function answerLine(
  line: string,
  info: ServerInfo,
  callTool: (call: ToolCall) => Promise<ToolResult>,
): Promise<Response | undefined> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return error(null, PARSE_ERROR, "not JSON");
  }
  if (!isRecord(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string")
    return isRecord(message) && "id" in message ? error(idOf(message.id), INVALID_REQUEST, "not a JSON-RPC 2.0 request") : undefined;
  if (!("id" in message)) return undefined; // a notification: initialized, cancelled, roots changed
  const id = idOf(message.id);
  const params = isRecord(message.params) ? message.params : {};
  const method = Object.hasOwn(METHODS, message.method) ? METHODS[message.method as keyof typeof METHODS] : undefined;
  if (!method) return error(id, METHOD_NOT_FOUND, `method not found: ${message.method}`);
  const answered = await method(params, info, callTool);
  return "error" in answered ? error(id, answered.error.code, answered.error.message) : { jsonrpc: "2.0", id, result: answered.result };
}

type Answered = { result: unknown } | { error: { code: number; message: string } };
type Method = (params: Record<string, unknown>, info: ServerInfo, callTool: (call: ToolCall) => Promise<ToolResult>) => Promise<Answered>;

const METHODS: Record<string, Method> = {
  initialize: async (params, info) => ({
    result: {
      protocolVersion: typeof params.protocolVersion === "string" ? params.protocolVersion : "2025-06-18",
      capabilities: { tools: {} },
      // No `instructions`: Claude Code would put them in the model's system prompt, every turn (docs/claude-code-facts.md).
      serverInfo: info,
    },
  }),
  ping: async () => ({ result: {} }),
  "tools/list": async () => ({ result: { tools: [] } }),
  "tools/call": async (params, _info, callTool) => {
    if (typeof params.name !== "string") return { error: { code: INVALID_PARAMS, message: "tools/call needs a tool name" } };
    return {
      result: await callTool({
        name: params.name,
        arguments: isRecord(params.arguments) ? params.arguments : {},
        meta: isRecord(params._meta) ? params._meta : undefined,
      }),
    };
  },
};

function idOf(id: unknown): Id {
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * Splits a byte stream into lines without copying what came before: a hook
 * call carries the tool's whole input (a Write of megabytes is one line).
 */
export class LineSplitter {
  private parts: Buffer[] = [];

  /** Feeds a chunk; returns the lines it completed. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.parts.push(chunk.subarray(start, nl));
      lines.push(Buffer.concat(this.parts).toString("utf8"));
      this.parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
    return lines.filter((l) => l.trim() !== "");
  }
}
