/**
 * A scripted stand-in for the Anthropic Messages API, good enough for the
 * pinned Claude Code binary (2.1.328) to run whole sessions offline.
 *
 * It listens on 127.0.0.1 on a free port, answers `POST /v1/messages` (SSE
 * when `stream: true`, plain JSON otherwise) from a script, answers anything
 * else harmlessly (token counting, model listing, HEAD/GET probes, and
 * tool-less housekeeping requests such as title generation) without consuming
 * a scripted turn, and records every request so tests can assert on what the
 * model was sent. With the environment `runClaude()` sets, 2.1.328 was only
 * seen to call `POST /v1/messages?beta=true` (see docs/claude-code-facts.md).
 *
 * Main-conversation and subagent requests are told apart (`defaultClassify`)
 * and can follow separate scripts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// ---------------------------------------------------------------------------
// Types

export type TextBlock = { type: "text"; text: string };
export type ToolUseBlock = { type: "tool_use"; name: string; input: unknown; id?: string };
export type ScriptBlock = TextBlock | ToolUseBlock;

/** Which conversation a /v1/messages request belongs to. */
export type RequestKind =
  /** the main conversation (consumes a scripted turn) */
  | "main"
  /** a spawned subagent's conversation (consumes a scripted turn too; see `subagentScript`) */
  | "subagent"
  /** Claude Code's own housekeeping (titles, topic/quota checks, ...): answered harmlessly */
  | "side"
  /** anything that is not POST /v1/messages */
  | "other";

export interface RecordedRequest {
  /** 0-based order of arrival over all requests */
  seq: number;
  method: string;
  /** path without query string */
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** parsed JSON body, or undefined when there was none / it was not JSON */
  body: any;
  rawBody: string;
  kind: RequestKind;
  /** for main / subagent requests: index of the scripted turn that answered */
  turn?: number;
  /** the blocks sent back (main / subagent / side) */
  reply?: ScriptBlock[];
  stopReason?: string;
  /** the script had no turn left; answered with a plain "done." */
  exhausted?: boolean;
}

/** A turn: fixed blocks, or a function of the request being answered. */
export type Turn = ScriptBlock[] | ((req: RecordedRequest, turnIndex: number) => ScriptBlock[] | Promise<ScriptBlock[]>);

/** A whole script: an ordered list of turns, or one function for every turn. */
export type Script = Turn[] | ((req: RecordedRequest, turnIndex: number) => ScriptBlock[] | Promise<ScriptBlock[]>);

export interface ScriptedModelOptions {
  /** turns for the main conversation (and for subagents too when `subagentScript` is not given) */
  script: Script;
  /** turns for subagent conversations; consumed in arrival order across all subagents */
  subagentScript?: Script;
  /**
   * Override the request classifier. Return undefined to fall back to the
   * built-in rules.
   */
  classify?: (req: RecordedRequest) => RequestKind | undefined;
  /** what to answer when the script has run out (default: a plain "done." end_turn) */
  whenExhausted?: "end_turn" | "error";
  /** log every request to stderr (also when SCRIPTED_MODEL_DEBUG=1) */
  debug?: boolean;
  /** model name echoed back when the request names none */
  model?: string;
  /** the `usage` a main or subagent reply reports (default: 10 input, 5 output); side replies keep the default */
  usage?: (req: RecordedRequest) => Partial<Usage> | undefined;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface ScriptedModel {
  url: string;
  port: number;
  /** every request received, in order of arrival */
  requests: RecordedRequest[];
  /** main-conversation /v1/messages requests only */
  mainRequests(): RecordedRequest[];
  subagentRequests(): RecordedRequest[];
  sideRequests(): RecordedRequest[];
  /** errors thrown by script functions, or script exhaustion with whenExhausted "error" */
  errors: Error[];
  /** number of main turns consumed */
  turnsUsed(): number;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Helpers for tests

export type AnyBlock = { type: string; [k: string]: any };

/** Content blocks of a message, whatever its shape (string content becomes one text block). */
export function contentBlocks(message: { content?: unknown } | undefined): AnyBlock[] {
  if (!message) return [];
  const c = message.content;
  if (typeof c === "string") return [{ type: "text", text: c }];
  return Array.isArray(c) ? (c as AnyBlock[]) : [];
}

/** The messages array of a recorded request (empty when absent). */
export function messagesOf(req: RecordedRequest): Array<{ role: string; content: unknown }> {
  return Array.isArray(req.body?.messages) ? req.body.messages : [];
}

/** The last message of the request with role "user". */
export function lastUserMessage(req: RecordedRequest): { role: string; content: unknown } | undefined {
  const msgs = messagesOf(req);
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]!.role === "user") return msgs[i];
  return undefined;
}

export interface ToolResult {
  tool_use_id: string;
  is_error: boolean;
  /** content flattened to text */
  text: string;
  raw: AnyBlock;
}

/** Flatten a tool_result's content (string or blocks) to text. */
export function toolResultText(block: AnyBlock): string {
  const c = block.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b: AnyBlock) => (b.type === "text" ? String(b.text) : `[${b.type}]`)).join("\n");
  return "";
}

/** tool_result blocks of the last user message of the request. */
export function lastToolResults(req: RecordedRequest): ToolResult[] {
  return contentBlocks(lastUserMessage(req))
    .filter((b) => b.type === "tool_result")
    .map((b) => ({ tool_use_id: String(b.tool_use_id), is_error: b.is_error === true, text: toolResultText(b), raw: b }));
}

/** Every tool_result block anywhere in the request's messages. */
export function allToolResults(req: RecordedRequest): ToolResult[] {
  return messagesOf(req)
    .flatMap((m) => (m.role === "user" ? contentBlocks(m) : []))
    .filter((b) => b.type === "tool_result")
    .map((b) => ({ tool_use_id: String(b.tool_use_id), is_error: b.is_error === true, text: toolResultText(b), raw: b }));
}

/** Text blocks of the last user message (e.g. additionalContext, system reminders, Stop-hook reasons). */
export function lastUserTexts(req: RecordedRequest): string[] {
  return contentBlocks(lastUserMessage(req))
    .filter((b) => b.type === "text")
    .map((b) => String(b.text));
}

/**
 * Texts of the mid-conversation `role: "system"` messages Claude Code 2.1.328
 * puts in `messages` (hook additionalContext, Stop-hook errors, environment,
 * skill listing). Only those after the last assistant message when `tailOnly`.
 */
export function systemMessageTexts(req: RecordedRequest, tailOnly = false): string[] {
  const msgs = messagesOf(req);
  const from = tailOnly ? lastAssistantIndex(msgs) + 1 : 0;
  return msgs
    .slice(from)
    .filter((m) => m.role === "system")
    .flatMap((m) => contentBlocks(m))
    .filter((b) => b.type === "text")
    .map((b) => String(b.text));
}

function lastAssistantIndex(msgs: Array<{ role: string }>): number {
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]!.role === "assistant") return i;
  return -1;
}

/**
 * Everything the model was sent after its last turn: tool results, and the
 * text of user and system messages (additionalContext, Stop-hook feedback...).
 */
export function sinceLastAssistant(req: RecordedRequest): { toolResults: ToolResult[]; texts: string[] } {
  const msgs = messagesOf(req);
  const tail = msgs.slice(lastAssistantIndex(msgs) + 1);
  const blocks = tail.flatMap((m) => contentBlocks(m));
  return {
    toolResults: blocks
      .filter((b) => b.type === "tool_result")
      .map((b) => ({ tool_use_id: String(b.tool_use_id), is_error: b.is_error === true, text: toolResultText(b), raw: b })),
    texts: blocks.filter((b) => b.type === "text").map((b) => String(b.text)),
  };
}

/**
 * The first user message's own text (system-reminder blocks left out): the
 * user's prompt in the main conversation, the Agent tool's `prompt` in a
 * subagent. Handy to route subagent scripts.
 */
export function firstUserText(req: RecordedRequest): string {
  const first = messagesOf(req).find((m) => m.role === "user");
  return contentBlocks(first)
    .filter((b) => b.type === "text" && !String(b.text).startsWith("<system-reminder>"))
    .map((b) => String(b.text))
    .join("\n");
}

/** How many turns this conversation has had: the assistant messages in the request. */
export function conversationTurn(req: RecordedRequest): number {
  return messagesOf(req).filter((m) => m.role === "assistant").length;
}

/**
 * A script that routes each request by its conversation's first user text
 * (see `firstUserText`) and answers with that route's turn number
 * `conversationTurn(req)`: stateless, so parallel subagents each follow their
 * own list whatever the order their requests arrive in. A route whose turns
 * are used up, or a request no route matches, gets `fallback` (default: a
 * plain "done." end_turn).
 */
export function routeByPrompt(
  routes: Array<[match: string | RegExp, turns: Turn[]]>,
  fallback: Turn = [text("done.")],
): (req: RecordedRequest, turnIndex: number) => Promise<ScriptBlock[]> {
  return async (req, turnIndex) => {
    const first = firstUserText(req);
    const route = routes.find(([m]) => (typeof m === "string" ? first.includes(m) : m.test(first)));
    const n = conversationTurn(req);
    const turn = route?.[1][n] ?? fallback;
    return typeof turn === "function" ? turn(req, turnIndex) : turn;
  };
}

/** The whole request rendered as text (system + messages), for loose `toContain` assertions. */
export function requestText(req: RecordedRequest): string {
  return JSON.stringify(req.body ?? null);
}

/** The system prompt as one string. */
export function systemText(req: RecordedRequest): string {
  const s = req.body?.system;
  if (typeof s === "string") return s;
  if (Array.isArray(s)) return s.map((b: AnyBlock) => String(b.text ?? "")).join("\n");
  return "";
}

/** Names of the tools offered in the request. */
export function toolNames(req: RecordedRequest): string[] {
  return Array.isArray(req.body?.tools) ? req.body.tools.map((t: AnyBlock) => String(t.name)) : [];
}

/** A tool_use block for a script, with an id that is unique in the run. */
let idCounter = 0;
export function toolUse(name: string, input: unknown, id?: string): ToolUseBlock {
  return { type: "tool_use", name, input, id: id ?? nextToolUseId() };
}
export function text(t: string): TextBlock {
  return { type: "text", text: t };
}
function nextToolUseId(): string {
  idCounter += 1;
  return `toolu_scripted_${process.pid}_${Date.now().toString(36)}_${idCounter}`;
}
let msgCounter = 0;
function nextMessageId(): string {
  msgCounter += 1;
  return `msg_scripted_${process.pid}_${Date.now().toString(36)}_${msgCounter}`;
}

// ---------------------------------------------------------------------------
// Classification

/**
 * Built-in request classifier.
 *
 * - Not POST /v1/messages → "other".
 * - No messages or no tools offered → "side" (housekeeping requests such as
 *   title generation carry no tools; none were seen in `-p` runs with
 *   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, but they are answered anyway).
 * - The system prompt's first block (the billing header) carries
 *   `cc_is_subagent=true` → "subagent" (observed in 2.1.328 for custom and
 *   built-in agents started by the Agent tool).
 * - Otherwise "main".
 */
export function defaultClassify(req: RecordedRequest): RequestKind {
  if (req.method !== "POST" || !/^\/v1\/messages\/?$/.test(req.path)) return "other";
  const body = req.body;
  if (!body || !Array.isArray(body.messages)) return "side";
  const tools: unknown[] = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length === 0) return "side";
  if (SUBAGENT_MARKER.test(systemText(req))) return "subagent";
  return "main";
}

/** What marks a subagent's request: its system prompt's billing header. */
export const SUBAGENT_MARKER = /\bcc_is_subagent=true\b/;

// ---------------------------------------------------------------------------
// Server

export async function startScriptedModel(opts: ScriptedModelOptions): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const errors: Error[] = [];
  const debug = opts.debug || process.env.SCRIPTED_MODEL_DEBUG === "1";
  let mainTurn = 0;
  let subTurn = 0;
  let seq = 0;

  const pick = async (script: Script, idx: number, req: RecordedRequest): Promise<ScriptBlock[] | undefined> => {
    if (typeof script === "function") return script(req, idx);
    const turn = script[idx];
    if (turn === undefined) return undefined;
    return typeof turn === "function" ? turn(req, idx) : turn;
  };

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    const [path, query = ""] = (req.url ?? "/").split("?", 2) as [string, string?];
    let body: any;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = {
      seq: seq++,
      method: req.method ?? "GET",
      path,
      query,
      headers: req.headers,
      body,
      rawBody,
      kind: "other",
    };
    rec.kind = opts.classify?.(rec) ?? defaultClassify(rec);
    requests.push(rec);
    if (debug) {
      process.stderr.write(
        `[scripted-model] #${rec.seq} ${rec.method} ${req.url} kind=${rec.kind} model=${body?.model ?? "-"} ` +
          `stream=${body?.stream ?? "-"} tools=${Array.isArray(body?.tools) ? body.tools.length : 0} ` +
          `msgs=${Array.isArray(body?.messages) ? body.messages.length : 0} max_tokens=${body?.max_tokens ?? "-"}\n`,
      );
    }

    // --- non-message endpoints -------------------------------------------
    if (rec.kind === "other") {
      return answerOther(rec, res, opts.model);
    }

    // --- /v1/messages ------------------------------------------------------
    // After a script error every later model request fails too (Claude Code
    // retries a failed request once; the retry must not get a turn).
    if (errors.length > 0 && rec.kind !== "side") {
      failFast(res, `scripted model: earlier script error: ${errors[0]!.message}`);
      return;
    }
    let blocks: ScriptBlock[];
    try {
      if (rec.kind === "side") {
        blocks = sideReply(rec);
      } else {
        const useSub = rec.kind === "subagent" && opts.subagentScript !== undefined;
        const idx = useSub ? subTurn++ : mainTurn++;
        rec.turn = idx;
        const got = await pick(useSub ? opts.subagentScript! : opts.script, idx, rec);
        if (got === undefined) {
          if (opts.whenExhausted === "error") {
            const err = new Error(`scripted model: script exhausted at ${rec.kind} turn ${idx}`);
            errors.push(err);
            failFast(res, err.message);
            return;
          }
          rec.exhausted = true;
          blocks = [text("done.")];
        } else {
          blocks = got;
        }
      }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      errors.push(err);
      failFast(res, `scripted model: ${err.message}`);
      return;
    }
    blocks = blocks.map((b) => (b.type === "tool_use" && !b.id ? { ...b, id: nextToolUseId() } : b));
    const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    rec.reply = blocks;
    rec.stopReason = stopReason;
    const model = typeof body?.model === "string" ? body.model : (opts.model ?? "claude-sonnet-4-5");
    const reported = { ...usage(), ...(rec.kind === "side" ? {} : opts.usage?.(rec)) };
    if (body?.stream === true) writeStream(res, model, blocks, stopReason, reported);
    else writeJson(res, model, blocks, stopReason, reported);
  };

  const server: Server = createServer((req, res) => {
    handler(req, res).catch((e) => {
      errors.push(e instanceof Error ? e : new Error(String(e)));
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on("connection", (socket) => socket.on("error", () => {}));
  server.on("clientError", (_err, socket) => socket.destroy());
  // Keep-alive sockets would hold close() open.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    errors,
    mainRequests: () => requests.filter((r) => r.kind === "main"),
    subagentRequests: () => requests.filter((r) => r.kind === "subagent"),
    sideRequests: () => requests.filter((r) => r.kind === "side"),
    turnsUsed: () => mainTurn,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Answer with a 400 invalid_request_error: Claude Code does not retry those,
 * so a broken script ends the run at once instead of after retries.
 */
function failFast(res: ServerResponse, message: string): void {
  res.writeHead(400, { "content-type": "application/json" });
  res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Harmless answer to a housekeeping request. */
function sideReply(req: RecordedRequest): ScriptBlock[] {
  const sys = systemText(req);
  const all = requestText(req);
  // Title / topic detection asks for JSON in some versions.
  if (/isNewTopic/i.test(all)) return [text('{"isNewTopic": false, "title": null}')];
  if (/title/i.test(sys) && /json/i.test(sys)) return [text('{"title": "Scripted session"}')];
  if (/title/i.test(sys)) return [text("Scripted session")];
  return [text("ok")];
}

function answerOther(rec: RecordedRequest, res: ServerResponse, model?: string): void {
  if (rec.method === "HEAD") {
    res.writeHead(200);
    res.end();
    return;
  }
  if (/\/v1\/messages\/count_tokens\/?$/.test(rec.path)) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ input_tokens: Math.ceil(rec.rawBody.length / 4) }));
    return;
  }
  if (/\/v1\/models\/?$/.test(rec.path)) {
    const ids = ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5", ...(model ? [model] : [])];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        data: ids.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
        has_more: false,
        first_id: ids[0],
        last_id: ids[ids.length - 1],
      }),
    );
    return;
  }
  if (/\/v1\/models\/[^/]+$/.test(rec.path)) {
    const id = decodeURIComponent(rec.path.split("/").pop()!);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
    return;
  }
  // Anything else: an empty JSON object, so probes see a live server.
  res.writeHead(200, { "content-type": "application/json" });
  res.end("{}");
}

function usage(): Usage {
  return {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function toApiBlock(b: ScriptBlock): Record<string, unknown> {
  return b.type === "text" ? { type: "text", text: b.text } : { type: "tool_use", id: b.id, name: b.name, input: b.input ?? {} };
}

function writeJson(res: ServerResponse, model: string, blocks: ScriptBlock[], stopReason: string, reported: Usage): void {
  res.writeHead(200, { "content-type": "application/json", "request-id": `req_${Date.now()}` });
  res.end(
    JSON.stringify({
      id: nextMessageId(),
      type: "message",
      role: "assistant",
      model,
      content: blocks.map(toApiBlock),
      stop_reason: stopReason,
      stop_sequence: null,
      usage: reported,
    }),
  );
}

function writeStream(res: ServerResponse, model: string, blocks: ScriptBlock[], stopReason: string, reported: Usage): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": `req_${Date.now()}`,
  });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send("message_start", {
    type: "message_start",
    message: {
      id: nextMessageId(),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...reported, output_tokens: 1 },
    },
  });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } });
    } else {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      const json = JSON.stringify(b.input ?? {});
      // Split the JSON in two deltas, as the real API streams it in pieces.
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } });
      }
    }
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: reported.output_tokens },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}
