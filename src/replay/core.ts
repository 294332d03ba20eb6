// Offline replay of one transcript's events: the redundancy rule (SPEC §7) and,
// optionally, the gate (SPEC §6) run over each scope as the hooks would have.
// Pure: events in, findings out. The file layer is in ./files.ts.
import { effectOf, type CallEffect } from "../engine/redundancy.js";
import { decideCall } from "../engine/scope-state/decide.js";
import type { ScopeEvent } from "../engine/scope-state/events.js";
import { applyEvents } from "../engine/scope-state/reducer.js";
import { newScope, type GateSource, type ScopeState } from "../engine/scope-state/state.js";
import { defaultConfig, type Config } from "../engine/signals.js";
import type { Spend } from "../engine/spend.js";
import { DELEGATE_TOOLS } from "../engine/tools.js";
import { observedEvents } from "../transcript/scope-events.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { Conversation } from "../engine/vocabulary.js";
import type { CallRef, DecidedCall, GateReplay, RepeatFinding, ScopeReplay, ScopeSource } from "./types.js";

export interface ReplayOptions {
  /** Also run the gate on every call, as if the scope were gated (default config). */
  gated?: boolean;
  config?: Config;
  /** The events are a subagent's own file: every line is that one scope. */
  subagentFile?: { agentId?: string };
}

/** A delegating call of the main scope (Task, Agent), kept to link subagent scopes to it by prompt. */
export interface Delegation {
  toolUseId: string;
  line: number;
  tool: string;
  prompt?: string;
  description?: string;
  subagentType?: string;
}

export interface EventsReplay {
  scopes: ScopeReplay[];
  /** Delegating calls of the main scope, in order. */
  delegations: Delegation[];
  /** The first prompt each subagent scope received, by scope id (to link it to a delegation). */
  prompts: Record<string, string>;
  /** Highest line number seen. */
  lines: number;
}

interface CallState {
  ref: CallRef;
  tool: string;
  input: unknown;
  digest: string;
  effect: CallEffect;
  resultBytes?: number;
  /** The gate (replayed) refused it: if the recording ran it anyway, it is remembered without a step. */
  refused?: boolean;
  repeatOf?: CallState;
}

interface Message {
  texts: string[];
}

/**
 * One scope being replayed: its state is the scope reducer's (the same the
 * hooks keep), fed event by event; the rest is what replay reports.
 */
class ScopeRun {
  readonly calls: CallState[] = [];
  readonly tools: Record<string, number> = {};
  readonly repeats: Array<{ first: CallState; repeat: CallState }> = [];
  readonly gate: GateReplay | undefined;
  /** What the hooks would hold for this scope. A scope starts before its first task. */
  state: ScopeState = newScope(0);
  readonly byId = new Map<string, CallState>();
  readonly decided: DecidedCall[] = [];
  private readonly messages = new Map<string, Message>();
  compactions = 0;
  firstLine = 0;
  lastLine = 0;
  prompt: string | undefined;

  constructor(
    readonly id: string,
    readonly scope: Conversation,
    readonly source: ScopeSource,
    gated: boolean,
    readonly agentId?: string,
  ) {
    this.gate = gated ? { passed: 0, refused: 0, neutral: 0, byRule: {}, refusals: [] } : undefined;
  }

  /** Assistant messages that reported usage (a count for the report; their spend is the reducer's). */
  readonly spendingMessages = new Set<string>();

  feed(...events: ScopeEvent[]): void {
    for (const event of events) if (event.kind === "usage") this.spendingMessages.add(event.messageId);
    this.state = applyEvents(this.state, events).state;
  }

  touch(line: number): void {
    if (this.firstLine === 0) this.firstLine = line;
    this.lastLine = line;
  }

  /** Spend of the tasks before the current one (the state's spend starts over with each task). */
  private spentBefore: Spend | undefined;

  startTask(): void {
    if (this.state.spend)
      this.spentBefore = applyEvents(newScope(), [
        ...(this.spentBefore ? [{ kind: "spend_added" as const, spend: this.spentBefore }] : []),
        { kind: "spend_added", spend: this.state.spend },
      ]).state.spend;
    this.feed({ kind: "prompt", typed: true });
  }

  /** Spend over every task of the file. */
  totalSpend(): Spend | undefined {
    if (!this.spentBefore) return this.state.spend;
    if (!this.state.spend) return this.spentBefore;
    return applyEvents(newScope(), [
      { kind: "spend_added", spend: this.spentBefore },
      { kind: "spend_added", spend: this.state.spend },
    ]).state.spend;
  }

  /** The last event of this scope was a compact_boundary line (its summary line is the same compaction). */
  afterBoundary = false;

  compact(source: "boundary" | "summary"): void {
    if (source === "boundary" || !this.afterBoundary) this.compactions += 1;
    this.afterBoundary = source === "boundary";
    this.feed({ kind: "compact" });
  }

  /** The model's text blocks so far in this message: what governs its next call (SPEC §4). */
  message(messageId: string): Message {
    let message = this.messages.get(messageId);
    if (!message) {
      message = { texts: [] };
      this.messages.set(messageId, message);
    }
    return message;
  }
}

/** The result Claude Code writes for a call a PreToolUse hook refused (docs/claude-code-facts.md): the call never ran. */
const REFUSED_BY_A_HOOK = /^PreToolUse:\S+ hook error: /;

/**
 * Replays one file's events. Scopes: the main conversation; each subagent,
 * whether its lines are 2.1 agent_progress copies (grouped by agent id),
 * 1.0 inline sidechains (contiguous runs, a new run at each subagent prompt),
 * or the whole file (`subagentFile`).
 */
export function replayEvents(events: readonly LocatedEvent[], options: ReplayOptions = {}): EventsReplay {
  const replay = new Replay(options);
  for (const event of events) replay.event(event);
  return replay.result();
}

type AssistantEvent = Extract<LocatedEvent, { kind: "assistant" }>;
type ResultEvent = Extract<LocatedEvent, { kind: "tool_result" }>;
type UserTextEvent = Extract<LocatedEvent, { kind: "user_text" }>;
type ToolUseBlock = Extract<AssistantEvent["blocks"][number], { type: "tool_use" }>;

/** replayEvents' state across one file's events. */
class Replay {
  private readonly gated: boolean;
  /** Replayed as if gated (by /utility on, with the options' config), or not at all. */
  private readonly gate: GateSource | undefined;
  private readonly scopes = new Map<string, ScopeRun>();
  private readonly byCallId = new Map<string, { run: ScopeRun; call: CallState }>();
  private readonly seenLines = new Set<string>();
  private readonly delegations: Delegation[] = [];
  private readonly errorCount = new Map<ScopeRun, number>();
  private inlineRun: ScopeRun | undefined;
  private inlineRuns = 0;
  private lines = 0;

  constructor(private readonly options: ReplayOptions) {
    this.gated = options.gated === true;
    const config = options.config ?? defaultConfig();
    this.gate = this.gated ? { file: "utility replay --gated", gated: true, scope: "self", config, extraTools: {} } : undefined;
  }

  event(event: LocatedEvent): void {
    const line = event.lineNo ?? 0;
    if (line > this.lines) this.lines = line;
    if (event.kind === "assistant" && this.seenBefore(event)) return;
    if (event.kind === "tool_result") return this.toolResult(event, line);
    const run = this.scopeFor(event);
    run.touch(line);
    if (event.kind === "compact") return run.compact(event.source);
    run.afterBoundary = false;
    if (event.kind === "user_text") return this.userText(run, event);
    this.assistant(run, event, line);
  }

  /** A line written twice (same uuid) counts once, as the hooks' reader does. */
  private seenBefore(event: AssistantEvent): boolean {
    if (event.uuid === undefined) return false;
    const key = `${event.uuid}\u0000${event.messageId}`;
    if (this.seenLines.has(key)) return true;
    this.seenLines.add(key);
    return false;
  }

  /** A result belongs to its call's scope, wherever it is written. */
  private toolResult(event: ResultEvent, line: number): void {
    const found = this.byCallId.get(event.toolUseId);
    if (!found || found.call.resultBytes !== undefined) return;
    found.run.touch(line);
    const { call } = found;
    call.resultBytes = event.bytes;
    if (event.isError) this.errorCount.set(found.run, (this.errorCount.get(found.run) ?? 0) + 1);
    // Refused by the replayed gate: a recording made under the gate never ran it (its result is the refusal); one made without it did.
    if (!call.refused) return found.run.feed(...observedEvents(event));
    if (!REFUSED_BY_A_HOOK.test(event.text))
      found.run.feed({
        kind: "ran_unchecked",
        tool: call.tool,
        digest: call.digest,
        effect: call.effect,
        toolUseId: event.toolUseId,
        failed: event.isError,
      });
  }

  private userText(run: ScopeRun, event: UserTextEvent): void {
    // A notification's end of a background job, the same event the hooks feed (SPEC §7).
    run.feed(...observedEvents(event));
    if (!event.isPrompt) return;
    if (run.scope === "main" || run.state.task === 0) run.startTask();
    if (run.prompt === undefined) run.prompt = event.text;
  }

  /** An assistant line: text blocks govern the calls after them in the same message; its usage is the scope's spend. */
  private assistant(run: ScopeRun, event: AssistantEvent, line: number): void {
    if (run.state.task === 0) run.startTask();
    run.feed(...observedEvents(event));
    const message = run.message(event.messageId);
    for (const block of event.blocks) {
      if (block.type === "text") message.texts.push(block.text);
      else this.toolUse(run, block, line, message);
    }
  }

  private toolUse(run: ScopeRun, block: ToolUseBlock, line: number, message: Message): void {
    if (this.byCallId.has(block.id)) return; // the same tool_use id written again
    const call = this.takeCall(run, { id: block.id, tool: block.name, input: block.input, line, reportText: message.texts.join("\n\n") });
    this.byCallId.set(block.id, { run, call });
    if (run.scope === "main" && (DELEGATE_TOOLS as readonly string[]).includes(block.name)) this.delegations.push(delegationOf(call));
  }

  private scopeFor(event: LocatedEvent): ScopeRun {
    if (this.options.subagentFile) {
      const agentId = this.options.subagentFile.agentId ?? event.agentId;
      return this.getScope(agentId ? `agent:${agentId}` : "subagent", "agent", "subagent_file", agentId);
    }
    if (!event.sidechain) {
      this.inlineRun = undefined;
      return this.getScope("main", "main", "main");
    }
    if (event.agentId) return this.getScope(`agent:${event.agentId}`, "agent", "inline", event.agentId);
    // 1.0: no agent id; a subagent's lines are contiguous, and each begins with its prompt.
    const startsAgent = event.kind === "user_text" && event.isPrompt && this.inlineRun !== undefined && this.inlineRun.lastLine > 0;
    if (!this.inlineRun || startsAgent) {
      this.inlineRuns += 1;
      this.inlineRun = this.getScope(`sidechain:${this.inlineRuns}`, "agent", "inline");
    }
    return this.inlineRun;
  }

  private getScope(id: string, scope: Conversation, source: ScopeSource, agentId?: string): ScopeRun {
    let run = this.scopes.get(id);
    if (!run) {
      run = new ScopeRun(id, scope, source, this.gated, agentId);
      this.scopes.set(id, run);
    }
    return run;
  }

  private takeCall(run: ScopeRun, taken: TakenCall): CallState {
    const { id, tool, input, line, reportText } = taken;
    const stepsBefore = run.state.step;
    // The same decision the hooks make, against the same state (src/engine/scope-state/decide.ts).
    const decided = decideCall(run.state, run.scope === "main" ? "self" : "subagent", this.gate, {
      tool,
      input,
      toolUseId: id,
      ...(run.gate ? { reportText } : {}),
    });
    run.feed(decided.event);
    const { decision } = decided;
    const uncounted = decision.decision === "neutral" || decision.decision === "refused";
    const ref: CallRef = { toolUseId: id, line, index: run.calls.length + 1, task: run.state.task, step: uncounted ? 0 : run.state.step };
    const call: CallState = {
      ref,
      tool,
      input,
      digest: decided.digest,
      effect: effectOf(tool, input),
      ...(decision.decision === "refused" ? { refused: true } : {}),
    };
    run.calls.push(call);
    run.byId.set(id, call);
    run.tools[tool] = (run.tools[tool] ?? 0) + 1;
    const first = decided.repeat?.toolUseId !== undefined ? run.byId.get(decided.repeat.toolUseId) : undefined;
    if (first) {
      call.repeatOf = first;
      run.repeats.push({ first, repeat: call });
    }
    if (decision.decision !== "neutral") run.decided.push(decidedCall(run, id, tool, decided));
    if (run.gate) countGate(run.gate, decision, { call: ref, tool, stepsBefore });
    return call;
  }

  result(): EventsReplay {
    const runs = [...this.scopes.values()];
    const prompts: Record<string, string> = {};
    for (const run of runs) if (run.scope === "agent" && run.prompt !== undefined) prompts[run.id] = run.prompt;
    const reports = runs.map((run) => scopeReport(run, this.errorCount.get(run) ?? 0));
    linkSubagents(reports, prompts, this.delegations);
    return { scopes: reports, delegations: this.delegations, prompts, lines: this.lines };
  }
}

/** One tool_use block to decide, with the text that governs it. */
interface TakenCall {
  id: string;
  tool: string;
  input: unknown;
  line: number;
  reportText: string;
}

type Decided = ReturnType<typeof decideCall>;

function decidedCall(run: ScopeRun, id: string, tool: string, { decision, repeat }: Decided): DecidedCall {
  return {
    toolUseId: id,
    tool,
    decision: decision.decision as DecidedCall["decision"],
    ...(decision.decision === "refused" ? { rule: decision.rule } : {}),
    task: run.state.task,
    step: run.state.step,
    ...(repeat ? { repeatOfStep: repeat.at, ...(repeat.toolUseId !== undefined ? { repeatOf: repeat.toolUseId } : {}) } : {}),
  };
}

/** The replayed gate's tally of one decision. */
function countGate(gate: GateReplay, decision: Decided["decision"], refusal: { call: CallRef; tool: string; stepsBefore: number }): void {
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

function delegationOf(call: CallState): Delegation {
  const input = (call.input ?? {}) as Record<string, unknown>;
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

function scopeReport(run: ScopeRun, errors: number): ScopeReplay {
  const spend = run.totalSpend();
  const repeats: RepeatFinding[] = run.repeats.map(({ first, repeat }) => {
    const resultBytes = repeat.resultBytes ?? 0;
    return {
      tool: repeat.tool,
      input: repeat.input,
      digest: repeat.digest,
      first: first.ref,
      repeat: repeat.ref,
      resultBytes,
      tokens: estimateTokens(resultBytes),
    };
  });
  const report: ScopeReplay = {
    id: run.id,
    scope: run.scope,
    source: run.source,
    ...(run.agentId !== undefined ? { agentId: run.agentId } : {}),
    firstLine: run.firstLine,
    lastLine: run.lastLine,
    calls: run.calls.length,
    tools: run.tools,
    tasks: run.state.task,
    compactions: run.compactions,
    unanswered: run.calls.filter((call) => call.resultBytes === undefined).length,
    errors,
    repeats,
    repeatTokens: repeats.reduce((sum, r) => sum + r.tokens, 0),
    decided: run.decided,
    ...(spend ? { spend, messages: run.spendingMessages.size } : {}),
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
