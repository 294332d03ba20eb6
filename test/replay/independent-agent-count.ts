// An independent count of what a cap per subagent (SPEC §16) would have done,
// written from the spec and the transcript format, with nothing of src/: each
// subagent's lines (its own file, or its copies in the session file: 2.1
// agent_progress lines, 1.0 inline sidechains), its own spend (assistant
// messages' usage, each message id once at its largest counts), and before
// each of its tool calls a cap could refuse (every tool but the planning ones)
// what it had spent by then: the tokens of every message up to the call's own
// message, whole (Claude Code writes all of a message's lines before it runs
// any of its calls, docs/claude-code-facts.md), and its earlier calls. A cap stops it at the first call made at
// or over the cap and saves at most what it spent after that call.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

type Json = Record<string, any>;

/** SPEC §6: tools that only plan or load capabilities: never refused by a budget. */
const NEUTRAL = new Set([
  "Skill",
  "TodoWrite",
  "TodoRead",
  "ToolSearch",
  "ExitPlanMode",
  "EnterPlanMode",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
]);

export interface CountedSubagent {
  session: string;
  /** `agent:<id>`, or `sidechain:<n>` for a 1.0 inline run (no agent id). */
  key: string;
  tokens: number;
  /** Its calls that ran (not refused, answered). */
  calls: number;
  /** Before each of its calls a cap could refuse: its own tokens and calls so far. */
  before: Array<{ tokens: number; calls: number }>;
}

function jsonLines(file: string): Json[] {
  const out: Json[] = [];
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    try {
      const json = JSON.parse(text) as unknown;
      if (json !== null && typeof json === "object") out.push(json as Json);
    } catch {
      // a torn line: skipped
    }
  }
  return out;
}

function hasText(content: unknown): boolean {
  if (typeof content === "string") return true;
  return Array.isArray(content) && content.some((b: Json) => b?.type === "text") && !content.some((b: Json) => b?.type === "tool_result");
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The subagent files beside a session file: `<session>/subagents/agent-*.jsonl`, a Workflow's under `workflows/<run>/`. */
function ownFiles(sessionFile: string): string[] {
  const folder = join(sessionFile.slice(0, -".jsonl".length), "subagents");
  const dirs = [folder, ...list(join(folder, "workflows")).map((n) => join(folder, "workflows", n))];
  return dirs.flatMap((dir) =>
    list(dir)
      .filter((n) => /^agent-.+\.jsonl$/.test(n))
      .map((n) => join(dir, n)),
  );
}

/** Each subagent's lines, in the order written. */
function subagentLines(sessionFile: string): Map<string, Json[]> {
  const files = ownFiles(sessionFile);
  const withFile = new Set(files.map((f) => basename(f, ".jsonl").slice("agent-".length)));
  const scopes = new Map<string, Json[]>();
  let run = 0;
  let inRun = false;
  for (const raw of jsonLines(sessionFile)) {
    const line: Json =
      raw.type === "progress" && raw.data?.type === "agent_progress"
        ? { ...raw.data.message, isSidechain: true, agentId: raw.data.agentId }
        : raw;
    if (line.isSidechain !== true) {
      inRun = false;
      continue;
    }
    if (typeof line.agentId === "string" && withFile.has(line.agentId)) continue;
    let key = typeof line.agentId === "string" ? `agent:${line.agentId}` : undefined;
    if (key === undefined) {
      // 1.0 wrote no agent id: a subagent's lines are one run, and each run begins with its prompt.
      const startsAnother = line.type === "user" && hasText(line.message?.content) && (scopes.get(`sidechain:${run}`)?.length ?? 0) > 0;
      if (!inRun || startsAnother) run += 1;
      key = `sidechain:${run}`;
    }
    inRun = true;
    scopes.set(key, [...(scopes.get(key) ?? []), line]);
  }
  for (const file of files) scopes.set(`agent:${basename(file, ".jsonl").slice("agent-".length)}`, jsonLines(file));
  return scopes;
}

const REFUSED = /^PreToolUse:\S+ hook error: /;

function resultText(block: Json): string {
  if (typeof block.content === "string") return block.content;
  if (!Array.isArray(block.content)) return "";
  return block.content
    .filter((b: Json) => b?.type === "text")
    .map((b: Json) => b.text)
    .join("\n");
}

const countsOf = (u: Json) =>
  [u.input_tokens, u.output_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens].map((v) =>
    Number.isSafeInteger(v) && v >= 0 ? (v as number) : 0,
  );

/** One subagent's own spend, and what it had spent before each call a cap could refuse. */
function countSubagent(session: string, key: string, scopeLines: readonly Json[]): CountedSubagent {
  const usage = new Map<string, number[]>();
  const tokens = () => [...usage.values()].reduce((n, c) => n + c.reduce((a, b) => a + b, 0), 0);
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  let admitted = 0;
  let refused = 0;
  const before: CountedSubagent["before"] = [];
  // The calls of the message being written: what they saw is known once its last line is.
  let open: { message: unknown; calls: number[] } | undefined;
  const close = () => {
    for (const calls of open?.calls ?? []) before.push({ tokens: tokens(), calls });
    open = undefined;
  };
  for (const line of scopeLines) {
    const message = line.message;
    const content = message?.content;
    if (open !== undefined && !(line.type === "assistant" && message?.id === open.message)) close();
    if (line.type === "assistant" && Array.isArray(content)) {
      if (typeof message.usage === "object" && message.usage !== null) {
        const id = typeof message.id === "string" ? message.id : `line:${line.uuid}`;
        const seen = usage.get(id) ?? [0, 0, 0, 0];
        const now = countsOf(message.usage);
        usage.set(
          id,
          seen.map((v, i) => Math.max(v, now[i]!)),
        );
      }
      for (const block of content as Json[]) {
        if (block?.type !== "tool_use" || typeof block.id !== "string" || calls.has(block.id)) continue;
        calls.set(block.id, String(block.name));
        if (NEUTRAL.has(String(block.name))) continue;
        (open ??= { message: message.id, calls: [] as number[] }).calls.push(admitted - refused);
        admitted += 1;
      }
    }
    if (line.type === "user" && Array.isArray(content))
      for (const block of content as Json[]) {
        const name = block?.type === "tool_result" ? calls.get(block.tool_use_id) : undefined;
        if (name === undefined || answered.has(block.tool_use_id)) continue;
        answered.add(block.tool_use_id);
        const wasRefused = (typeof line.toolDenialKind === "string" && block.is_error === true) || REFUSED.test(resultText(block));
        if (wasRefused && !NEUTRAL.has(name)) refused += 1;
      }
  }
  close();
  const ran = [...calls].filter(([id, name]) => answered.has(id) && !NEUTRAL.has(name)).length;
  return { session, key, tokens: tokens(), calls: ran - refused, before };
}

/** Every subagent of a session file (and the subagent files beside it), with its own spend. */
export function countSubagents(sessionFile: string): CountedSubagent[] {
  const session = basename(sessionFile, ".jsonl");
  return [...subagentLines(sessionFile)].map(([key, scopeLines]) => countSubagent(session, key, scopeLines));
}

/** What a cap on `measure` would have done: the subagents it stops and, at most, what each would have saved. */
export function capEffect(subagents: readonly CountedSubagent[], measure: "tokens" | "calls", cap: number) {
  const saved = subagents.flatMap((s) => {
    const first = s.before.find((b) => b[measure] >= cap);
    return first === undefined ? [] : [Math.max(0, s.tokens - first.tokens)];
  });
  return { stopped: saved.length, savedTokens: saved.reduce((a, b) => a + b, 0) };
}

/** The p-th percentile by nearest rank: the value at rank ceil(p/100 · n) of the sorted values. */
export function rank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

/** Up to two significant digits: 2,179,348.5 → 2,200,000. */
export function twoDigitsUp(x: number): number {
  const digits = Math.floor(x).toString().length;
  const unit = digits >= 2 ? 10 ** (digits - 2) : 1;
  return Math.ceil(x / unit) * unit;
}
