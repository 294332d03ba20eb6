/**
 * An in-memory HookContext for unit tests of the hook handlers: state in a
 * MemoryStateStore, log records in an array, the report text of each call
 * given by the test, or else what the scope's transcript holds now (never
 * waiting), skills and agent definitions resolved from maps.
 */
import { ConfigSchema, type Config } from "../../src/engine/signals.js";
import type { HookContext } from "../../src/hooks/context.js";
import type { ScopeRef } from "../../src/hooks/scope.js";
import type { LogRecord } from "../../src/log/record.js";
import { newSession, type GateSource, type SessionDraft, type SessionState } from "../../src/engine/session/state.js";
import type { StateStore } from "../../src/state/store.js";
import { MemoryStateStore } from "../support/memory-store.js";
import { findGoverningText, type GoverningText } from "../../src/transcript/queries.js";
import { transcriptSize } from "../../src/transcript/source.js";
import type { SkillVerdict } from "../../src/skills/classify.js";

export const SESSION = "session-unit-1";
/** No such file: the handlers see an empty transcript. */
export const NO_TRANSCRIPT = "/nonexistent/utility-unit/transcript.jsonl";

const ABSENT: GoverningText = { found: false, reason: "absent" };

export interface FakeContext extends HookContext {
  store: StateStore;
  records: LogRecord[];
  /** Skill name → what it does; any other name only loads text. */
  skillVerdicts: Map<string, SkillVerdict>;
  /** tool_use_id → the model's text before that call (in message "msg_1"); a call not here is looked up in its transcript. */
  texts: Map<string, string>;
  skills: Map<string, GateSource>;
  agents: Map<string, GateSource>;
  waits: Array<{ ref: ScopeRef; toolUseId: string }>;
  finals: string[];
  state(): SessionState | undefined;
}

export function fakeContext(store: StateStore = new MemoryStateStore()): FakeContext {
  let t = 0;
  const ctx: FakeContext = {
    env: {},
    dataDir: "/nonexistent/utility-unit",
    store,
    records: [],
    texts: new Map(),
    skillVerdicts: new Map(),
    skills: new Map(),
    agents: new Map(),
    waits: [],
    finals: [],
    now: () => (t += 1.5),
    clock: () => new Date("2026-01-02T03:04:05.000Z"),
    appendLog: (_session, record) => void ctx.records.push(record),
    readLog: () => [...ctx.records],
    loadSkill: async (file) => ctx.skills.get(file),
    waitForText: (ref, toolUseId): GoverningText => {
      ctx.waits.push({ ref, toolUseId });
      const text = ctx.texts.get(toolUseId);
      if (text === undefined)
        return transcriptSize(ref.transcript) >= 0 ? findGoverningText(ref.transcript, toolUseId, { lines: ref.lines }) : ABSENT;
      return {
        found: true,
        messageId: "msg_1",
        text,
        textBlocks: [text],
        toolUse: { type: "tool_use", id: toolUseId, name: "x", input: {} },
        toolUseIds: [toolUseId],
        offset: 0,
      };
    },
    waitForFinal: (_ref, finalText) => {
      ctx.finals.push(finalText);
      return true;
    },
    loadAgent: async (agentType) => ctx.agents.get(agentType),
    judgeSkill: async (toolInput) => {
      const name = (toolInput as { skill?: unknown } | null)?.skill;
      return (typeof name === "string" ? ctx.skillVerdicts.get(name) : undefined) ?? { class: "neutral", why: "loads text only" };
    },
    state: () => store.read(SESSION),
  };
  return ctx;
}

/** A gate source as a skill's frontmatter would give it. */
export function source(
  file: string,
  over: {
    config?: Partial<Config>;
    scope?: "self" | "dispatch";
    problem?: string;
    extraTools?: Record<string, string[]>;
    gated?: boolean;
  } = {},
): GateSource {
  return {
    file,
    gated: over.gated ?? true,
    scope: over.scope ?? "self",
    config: ConfigSchema.parse(over.config ?? {}),
    extraTools: over.extraTools ?? {},
    ...(over.problem ? { problem: over.problem } : {}),
  };
}

/** A new session as a draft a test may change before handing it to a store (only src/engine/session changes states in the product). */
export function draftSession(sessionId: string = SESSION): SessionDraft {
  return structuredClone(newSession(sessionId)) as SessionDraft;
}

/** Seeds the session's state: the main scope gated by `gate` (a source, or true for /utility on). */
export function seedMainGate(ctx: FakeContext, gate: GateSource | true, change: (s: SessionDraft) => void = () => {}): void {
  const state = draftSession();
  if (gate === true) state.manualGate = true;
  else state.main.sources.push(gate);
  change(state);
  (ctx.store as MemoryStateStore).states.set(SESSION, state);
}

let n = 0;
/** PreToolUse input for the main scope (or a subagent with `agent`). */
export function preInput(
  tool: string,
  toolInput: unknown = { command: "true" },
  over: { id?: string; agent?: { id: string; type: string }; transcript?: string } = {},
) {
  n += 1;
  return {
    session_id: SESSION,
    transcript_path: over.transcript ?? NO_TRANSCRIPT,
    cwd: "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: over.id ?? `toolu_unit_${n}`,
    ...(over.agent ? { agent_id: over.agent.id, agent_type: over.agent.type } : {}),
  };
}

export const report = (action: string, utility: string | number, breakdown: string, rationale = "because") =>
  `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: "${rationale}"`;
export const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0";

/** The deny reason of a handler result, or undefined when it did not refuse. */
export function denyReason(result: { output?: Record<string, unknown> }): string | undefined {
  const out = result.output?.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  return out?.permissionDecision === "deny" ? out.permissionDecisionReason : undefined;
}
