// One scope's run through replay (./session-replay.ts): the calls it made and what was
// found in them, and the report made of it at the end; the subagent scopes
// linked to the calls that launched them.
import type { CallEffect } from "../engine/redundancy.js";
import type { SessionDecision } from "../engine/session/decide.js";
import type { ScopeKey } from "../engine/session/events.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { ScopeState, SessionState } from "../engine/session/state.js";
import { sumSpend, type Spend } from "../engine/spend.js";
import type { Conversation } from "../engine/vocabulary.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type {
  CallRef,
  DecidedCall,
  Delegation,
  GateReplay,
  IdenticalOutcomeFinding,
  RepeatFinding,
  ScopeReplay,
  ScopeSource,
  StuckLoopFinding,
} from "./types.js";

export type AssistantEvent = Extract<LocatedEvent, { kind: "assistant" }>;
export type ToolUseBlock = Extract<AssistantEvent["blocks"][number], { type: "tool_use" }>;

export interface CallState {
  ref: CallRef;
  tool: string;
  digest: string;
  effect: CallEffect;
  /** Its input for findings; a write's content is not kept (a Write holds a whole file). */
  input: unknown;
  resultBytes?: number;
  /** The replayed gate refused it: if the recording ran it anyway, it is remembered without a step. */
  refused?: boolean;
  repeatOf?: CallState;
}

/** One scope's findings (what replay reports); its state is the session machine's. */
export class ScopeRun {
  readonly calls: CallState[] = [];
  readonly tools: Record<string, number> = {};
  /** Each exact repeat, with its input (the only calls whose input is kept: a Write's holds a whole file). */
  readonly repeats: Array<{ first: CallState; repeat: CallState; input: unknown }> = [];
  readonly identical: Array<{ call: CallState; of: CallState; retry?: true }> = [];
  readonly stuck: Array<{ call: CallState; runs: CallState[]; refused: boolean }> = [];
  readonly byId = new Map<string, CallState>();
  readonly decided: DecidedCall[] = [];
  /** The text blocks of the scope's newest messages (a message's calls are governed by its texts; older messages are forgotten). */
  readonly messageTexts = new Map<string, string[]>();
  readonly spendingMessages = new Set<string>();
  /** The scope's spend per task, as the machine last counted it (spend only grows within a task). */
  readonly taskSpend = new Map<number, Spend>();
  gate: GateReplay | undefined;
  compactions = 0;
  afterBoundary = false;
  firstLine = 0;
  lastLine = 0;
  errors = 0;
  prompt: string | undefined;

  constructor(
    readonly key: ScopeKey,
    readonly id: string,
    readonly scope: Conversation,
    readonly source: ScopeSource,
    readonly agentId?: string,
  ) {}

  touch(line: number): void {
    if (this.firstLine === 0) this.firstLine = line;
    this.lastLine = line;
  }
}

export function decidedCall(
  session: SessionState,
  run: ScopeRun,
  block: ToolUseBlock,
  { decision, repeat, stuck }: SessionDecision,
): DecidedCall {
  const scope = scopeAt(session, run.key);
  return {
    toolUseId: block.id,
    tool: block.name,
    decision: decision.decision as DecidedCall["decision"],
    ...(decision.decision === "refused" ? { rule: decision.rule } : {}),
    task: scope.task,
    step: scope.step,
    ...(repeat ? { repeatOfStep: repeat.at, ...(repeat.toolUseId !== undefined ? { repeatOf: repeat.toolUseId } : {}) } : {}),
    ...(decision.decision === "passed" && decision.fallback ? { fallback: decision.fallback.to } : {}),
    ...(stuck ? { stuckSteps: stuck.map((ran) => ran.at) } : {}),
  };
}

/** The replayed gate's tally of one decision. */
export function countGate(
  gate: GateReplay,
  decision: SessionDecision["decision"],
  refusal: { call: CallRef; tool: string; stepsBefore: number },
): void {
  if (decision.decision === "neutral") gate.neutral += 1;
  else if (decision.decision === "refused") {
    gate.refused += 1;
    gate.byRule[decision.rule] = (gate.byRule[decision.rule] ?? 0) + 1;
    gate.refusals.push({
      call: refusal.call,
      tool: refusal.tool,
      rule: decision.rule,
      reason: decision.reason,
      stepsBefore: refusal.stepsBefore,
    });
  } else gate.passed += 1;
}

export function delegationOf(call: CallState, given: unknown): Delegation {
  const input = (given ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
  const delegation: Delegation = { toolUseId: call.ref.toolUseId, line: call.ref.line, tool: call.tool };
  const prompt = text("prompt") ?? text("message");
  if (prompt !== undefined) delegation.prompt = prompt;
  const description = text("description");
  if (description !== undefined) delegation.description = description;
  const subagentType = text("subagent_type");
  if (subagentType !== undefined) delegation.subagentType = subagentType;
  return delegation;
}

/** Tokens a repeat cost, estimated from its recorded result (see TOKEN_ESTIMATE). */
export function estimateTokens(resultBytes: number): number {
  return Math.ceil(resultBytes / 4);
}

/** A scope's spend over every task, each task at the machine's final count. */
function totalOf(run: ScopeRun): Spend | undefined {
  return run.taskSpend.size === 0 ? undefined : sumSpend([...run.taskSpend.values()]);
}

/** What a finding shows of a call's input: all of it, but for a write only the files it wrote. */
export function keptInput(input: unknown, effect: CallEffect): unknown {
  return effect.kind === "write" ? { omitted: "the content written", paths: effect.paths } : input;
}

export function scopeReport(run: ScopeRun, state: ScopeState): ScopeReplay {
  const tasks = state.task;
  const spend = totalOf(run);
  const repeats: RepeatFinding[] = run.repeats.map(({ first, repeat, input }) => {
    const resultBytes = repeat.resultBytes ?? 0;
    return {
      tool: repeat.tool,
      input,
      digest: repeat.digest,
      first: first.ref,
      repeat: repeat.ref,
      resultBytes,
      tokens: estimateTokens(resultBytes),
    };
  });
  const identicalOutcomes: IdenticalOutcomeFinding[] = run.identical.map(({ call, of, retry }) => ({
    tool: call.tool,
    input: call.input,
    call: call.ref,
    of: of.ref,
    resultBytes: call.resultBytes ?? 0,
    ...(retry ? { retry } : {}),
  }));
  const stuckLoops: StuckLoopFinding[] = run.stuck.map(({ call, runs, refused }) => ({
    tool: call.tool,
    input: call.input,
    call: call.ref,
    runs: runs.map((r) => r.ref),
    refused,
  }));
  const report: ScopeReplay = {
    id: run.id,
    scope: run.scope,
    source: run.source,
    ...(run.agentId !== undefined ? { agentId: run.agentId } : {}),
    firstLine: run.firstLine,
    lastLine: run.lastLine,
    calls: run.calls.length,
    tools: run.tools,
    tasks,
    compactions: run.compactions,
    unanswered: run.calls.filter((call) => call.resultBytes === undefined).length,
    errors: run.errors,
    repeats,
    repeatTokens: repeats.reduce((sum, r) => sum + r.tokens, 0),
    identicalOutcomes,
    stuckLoops,
    decided: run.decided,
    taskSpend: [...run.taskSpend.entries()].sort(([a], [b]) => a - b).map(([task, taskSpend]) => ({ task, spend: taskSpend })),
    ...(spend ? { spend, messages: run.spendingMessages.size } : {}),
    ...(run.key !== "main" && state.rootTask !== undefined ? { rootTask: state.rootTask } : {}),
    ...(run.key !== "main" && state.ordinal !== undefined ? { ordinal: state.ordinal } : {}),
    ...(state.agentType !== undefined ? { agentType: state.agentType } : {}),
  };
  if (run.gate) report.gate = run.gate;
  return report;
}

/** Links each subagent scope to the main scope's delegating call whose prompt it received (first match, each call once). */
export function linkSubagents(scopes: readonly ScopeReplay[], prompts: Record<string, string>, delegations: readonly Delegation[]): void {
  const used = new Set<string>();
  for (const scope of scopes) {
    const prompt = prompts[scope.id]?.trim();
    if (scope.scope !== "agent" || scope.spawnedBy || prompt === undefined) continue;
    const match = delegations.find((d) => !used.has(d.toolUseId) && d.prompt?.trim() === prompt);
    if (!match) continue;
    used.add(match.toolUseId);
    scope.spawnedBy = {
      toolUseId: match.toolUseId,
      line: match.line,
      tool: match.tool,
      ...(match.description !== undefined ? { description: match.description } : {}),
      ...(match.subagentType !== undefined ? { subagentType: match.subagentType } : {}),
    };
  }
}
