/**
 * An independent reading of SPEC §13, for checking replay and the hooks
 * against real transcripts: no code of src/. It reads the JSONL lines as
 * Claude Code writes them and, per scope, compares each call's result text
 * with the text the same call (same tool, same input) returned at its last
 * run since the scope's last compaction. Equal text, and a call that changes
 * things (not a read-only, polling or planning tool) started between the two,
 * or the last run failed: an identical outcome. Calls that never ran (refused
 * by a hook or by the user) are no runs; a result that holds more than text
 * (an image) is compared with nothing.
 */
import { readFileSync } from "node:fs";

type Json = Record<string, unknown>;

/** Tools whose same result is meant to come again (polls) or that plan only: never an identical outcome. */
const NEVER = new Set([
  "BashOutput",
  "TaskOutput",
  "TodoWrite",
  "TodoRead",
  "Skill",
  "ToolSearch",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
  "ExitPlanMode",
  "EnterPlanMode",
]);
/** Tools whose runs change nothing another call could read (SPEC §6's retrieve row, the polling and planning tools). */
const CHANGES_NOTHING = new Set([
  "Read",
  "Grep",
  "Glob",
  "LS",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  ...NEVER,
]);

/** SPEC §7: fields that change nothing the call does (a label, a time limit) are no part of "the same input". */
const COSMETIC: Record<string, string[]> = {
  Bash: ["description", "timeout"],
  Agent: ["description"],
  Task: ["description"],
  Workflow: ["description", "title"],
  Monitor: ["description"],
  SendMessage: ["summary"],
  ScheduleWakeup: ["reason"],
};

function withoutCosmetic(tool: string, input: unknown): unknown {
  const drop = Object.hasOwn(COSMETIC, tool) ? COSMETIC[tool]! : [];
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input as Json).filter(([k]) => !drop.includes(k)));
}

/** JSON with keys sorted: the same input written in another key order is the same input. */
function sorted(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sorted).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value as Json)
      .sort()
      .filter((k) => (value as Json)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sorted((value as Json)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

interface Run {
  id: string;
  key: string;
  /** Index of its tool_use among all tool_uses of its scope. */
  at: number;
  text?: string;
  failed?: boolean;
}

interface Scope {
  calls: Map<string, { key: string; at: number; tool: string }>;
  /** Runs whose results came, since the last compaction, in the order they came. */
  runs: Run[];
  /** Index (tool_use order) of each tool_use that changes things. */
  changers: number[];
  uses: number;
}

export interface FoundIdentical {
  call: string;
  of: string;
}

/** The identical outcomes of one session's files (a session file, and its subagent files), as `call` and the earlier run `of`. */
export function findIdenticalOutcomes(files: readonly string[]): FoundIdentical[] {
  const found: FoundIdentical[] = [];
  const scopes = new Map<string, Scope>();
  const scopeOfCall = new Map<string, string>();
  let inlineRun = 0;
  const scope = (name: string): Scope => {
    let s = scopes.get(name);
    if (!s) scopes.set(name, (s = { calls: new Map(), runs: [], changers: [], uses: 0 }));
    return s;
  };
  for (const file of files) {
    const subagent = /agent-([^/]+)\.jsonl$/.exec(file)?.[1];
    for (const text of readFileSync(file, "utf8").split("\n")) {
      if (text.trim() === "") continue;
      let json: Json;
      try {
        json = JSON.parse(text) as Json;
      } catch {
        continue;
      }
      const data = json.data as { type?: string; message?: Json; agentId?: string } | undefined;
      const nested = json.type === "progress" && data?.type === "agent_progress" ? data.message : undefined;
      if (json.type === "progress" && !nested) continue;
      const line = nested ?? json;
      const sidechain = nested !== undefined || json.isSidechain === true;
      const message = line.message as { content?: unknown } | undefined;
      if (sidechain && !subagent && !(data?.agentId ?? json.agentId) && line.type === "user" && typeof message?.content === "string")
        inlineRun += 1;
      const name = subagent
        ? `agent:${subagent}`
        : !sidechain
          ? "main"
          : `agent:${String(data?.agentId ?? json.agentId ?? `inline-${inlineRun}`)}`;
      const s = scope(name);
      if ((json.type === "system" && json.subtype === "compact_boundary") || json.isCompactSummary === true) {
        s.runs = [];
        continue;
      }
      if (!Array.isArray(message?.content)) continue;
      for (const block of message.content as Json[]) {
        if (block.type === "tool_use" && typeof block.id === "string" && !scopeOfCall.has(block.id)) {
          const tool = String(block.name);
          s.calls.set(block.id, { key: `${tool} ${sorted(withoutCosmetic(tool, block.input ?? {}))}`, at: s.uses, tool });
          scopeOfCall.set(block.id, name);
          if (!CHANGES_NOTHING.has(tool)) s.changers.push(s.uses);
          s.uses += 1;
        }
        if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
        const owner = scopes.get(scopeOfCall.get(block.tool_use_id) ?? "");
        const call = owner?.calls.get(block.tool_use_id);
        if (!owner || !call) continue;
        owner.calls.delete(block.tool_use_id); // one result per call
        const content = block.content;
        const textOnly = typeof content === "string" || (Array.isArray(content) && (content as Json[]).every((b) => b.type === "text"));
        const resultText =
          typeof content === "string"
            ? content
            : Array.isArray(content)
              ? (content as Json[]).map((b) => String(b.text ?? "")).join("\n")
              : "";
        const failed = block.is_error === true;
        // Never ran: refused by a PreToolUse hook, or by the user (Claude Code marks the line).
        if (
          failed &&
          (resultText.startsWith("PreToolUse:") || typeof line.toolDenialKind === "string" || typeof json.toolDenialKind === "string")
        )
          continue;
        const run: Run = {
          id: block.tool_use_id,
          key: call.key,
          at: call.at,
          ...(textOnly ? { text: resultText } : {}),
          ...(failed ? { failed } : {}),
        };
        const last = [...owner.runs].reverse().find((r) => r.key === run.key);
        if (last && !NEVER.has(call.tool) && run.text !== undefined && last.text === run.text) {
          const between = owner.changers.some((i) => i !== run.at && i > last.at && i < run.at);
          if (between || last.failed) found.push({ call: run.id, of: last.id });
        }
        owner.runs.push(run);
      }
    }
  }
  return found;
}
