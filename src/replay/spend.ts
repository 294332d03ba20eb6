// STAND-IN for the scope-state reducer (issue 12). Replay's token totals are
// computed here from the raw lines because the reducer that accumulates Spend
// per scope and task was not on this branch: the lead replaces
// `transcriptSpend` with the reducer folded over the same transcript.
//
// Pure: transcript lines in, Spend-shaped totals per scope out.
import { zeroSpend, type Spend, type TokenCounts } from "../engine/spend.js";

/** One assistant message's usage (`message.usage`), as the transcript writes it. */
interface Usage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
}

export interface Message {
  model: string;
  tokens: TokenCounts;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

function tokensOf(usage: Usage): TokenCounts {
  return { input: count(usage.input_tokens), output: count(usage.output_tokens), cacheCreation: count(usage.cache_creation_input_tokens), cacheRead: count(usage.cache_read_input_tokens) };
}

/** Lines of one message are snapshots of one streaming response: each count only grows, so the largest is the message's. */
function merge(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { input: Math.max(a.input, b.input), output: Math.max(a.output, b.output), cacheCreation: Math.max(a.cacheCreation, b.cacheCreation), cacheRead: Math.max(a.cacheRead, b.cacheRead) };
}

interface Found {
  scope: string;
  id: string | undefined;
  model: string;
  usage: Usage;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The assistant message a line carries, directly or as a 2.1 agent_progress copy, and whose scope it is. */
function messageOf(line: Json, fileAgentId: string | undefined): Found | undefined {
  if (line.type === "progress" && isObject(line.data) && isObject(line.data.message)) {
    const agentId = typeof line.data.agentId === "string" ? line.data.agentId : undefined;
    const inner = messageOf({ ...line.data.message, isSidechain: true, ...(agentId ? { agentId } : {}) }, undefined);
    return inner;
  }
  if (line.type !== "assistant" || !isObject(line.message) || !isObject(line.message.usage)) return undefined;
  const agentId = fileAgentId ?? (typeof line.agentId === "string" ? line.agentId : undefined);
  const scope = agentId !== undefined ? `agent:${agentId}` : line.isSidechain === true ? "sidechain" : "main";
  const id = typeof line.message.id === "string" ? line.message.id : undefined;
  const model = typeof line.message.model === "string" ? line.message.model : "(unknown model)";
  return { scope, id, model, usage: line.message.usage as Usage };
}

export interface TranscriptSpend {
  /** By scope: `main`, `agent:<id>`, or `sidechain` for Claude Code 1.0 inline subagent lines, which carry no agent id. */
  scopes: Map<string, { spend: Spend; messages: number }>;
  /** Every message by id, for totals over several files that copy the same messages. */
  messages: Map<string, Message>;
}

/**
 * Tokens of a transcript's assistant messages by scope, each message (one
 * `message.id`) counted once however many lines it spans. Lines that are not
 * JSON or carry no usage are skipped. `toolCalls` and `agentsLaunched` are
 * left at 0: replay counts calls itself.
 */
export function transcriptSpend(lines: Iterable<string>, options: { agentId?: string; file?: string } = {}): TranscriptSpend {
  const byScope = new Map<string, Map<string, Message>>();
  let anonymous = 0;
  for (const text of lines) {
    if (!text.includes('"usage"')) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(json)) continue;
    const found = messageOf(json, options.agentId);
    if (!found) continue;
    const messages = byScope.get(found.scope) ?? new Map<string, Message>();
    byScope.set(found.scope, messages);
    // A message without an id is its own message; keyed by file so that two files' never meet.
    const key = found.id ?? `${options.file ?? ""}#line:${anonymous++}`;
    const tokens = tokensOf(found.usage);
    const before = messages.get(key);
    messages.set(key, { model: found.model, tokens: before ? merge(before.tokens, tokens) : tokens });
  }
  const scopes = new Map<string, { spend: Spend; messages: number }>();
  const all = new Map<string, Message>();
  for (const [scope, messages] of byScope) {
    const spend = zeroSpend();
    for (const [id, m] of messages) {
      addInto(spend, m);
      all.set(id, m);
    }
    scopes.set(scope, { spend, messages: messages.size });
  }
  return { scopes, messages: all };
}

export function addInto(spend: Spend, m: Message): void {
  for (const target of [spend.tokens, (spend.byModel[m.model] ??= { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 })]) {
    target.input += m.tokens.input;
    target.output += m.tokens.output;
    target.cacheCreation += m.tokens.cacheCreation;
    target.cacheRead += m.tokens.cacheRead;
  }
}

/** One Spend over several transcripts' messages: a message copied into two files (agent_progress) counts once. */
export function spendOfMessages(messages: Iterable<Message>): Spend {
  const spend = zeroSpend();
  for (const m of messages) addInto(spend, m);
  return spend;
}
