// Offline replay of one transcript's events: the redundancy rule (SPEC §7) and,
// optionally, the gate (SPEC §6) run over each scope as the hooks would have.
// Pure: events in, findings out. The file layer is in ./files.ts.
import { decideToolCall } from "../engine/gate.js";
import { callEnd, endJob, launchedJobId, notificationEnd } from "../engine/background.js";
import { effectOf, findExactRepeat, inputDigest, type RanCall } from "../engine/redundancy.js";
import { defaultConfig, type Config } from "../engine/signals.js";
import { isNeutralTool, DELEGATE_TOOLS } from "../engine/tools.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { CallRef, GateReplay, RepeatFinding, ScopeReplay, ScopeSource } from "./types.js";

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
  resultBytes?: number;
  /** Set while the call is out; cleared when its result comes back. */
  pending?: RanCall;
  repeatOf?: CallState;
}

interface Message {
  texts: string[];
}

/** One scope being replayed: what the hooks keep in their state, plus what we report. */
class ScopeRun {
  readonly calls: CallState[] = [];
  readonly tools: Record<string, number> = {};
  readonly repeats: Array<{ first: CallState; repeat: CallState }> = [];
  readonly gate: GateReplay | undefined;
  /** Calls that ran since the last compaction, oldest first: what repeats are judged against. */
  history: RanCall[] = [];
  /** How many history entries carry each tool+digest: lets most calls skip the backward scan. */
  private seen = new Map<string, number>();
  private readonly messages = new Map<string, Message>();
  task = 0;
  /** Steps of the current task, counted as in an ungated scope (every non-neutral call). */
  step = 0;
  /** Steps of the current task under the gate (refused calls are not steps). */
  gatedStep = 0;
  compactions = 0;
  firstLine = 0;
  lastLine = 0;
  prompt: string | undefined;

  constructor(
    readonly id: string,
    readonly scope: "main" | "subagent",
    readonly source: ScopeSource,
    gated: boolean,
    readonly agentId?: string,
  ) {
    this.gate = gated ? { passed: 0, refused: 0, neutral: 0, byRule: {}, refusals: [] } : undefined;
  }

  touch(line: number): void {
    if (this.firstLine === 0) this.firstLine = line;
    this.lastLine = line;
  }

  startTask(): void {
    this.task += 1;
    this.step = 0;
    this.gatedStep = 0;
  }

  /** The last event of this scope was a compact_boundary line (its summary line is the same compaction). */
  afterBoundary = false;

  compact(source: "boundary" | "summary"): void {
    if (source === "boundary" || !this.afterBoundary) this.compactions += 1;
    this.afterBoundary = source === "boundary";
    this.history = [];
    this.seen.clear();
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

  ran(call: RanCall): void {
    this.history.push(call);
    const key = seenKey(call.tool, call.digest);
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  }

  /** Calls let through whose results have not come back yet. */
  inFlight(): RanCall[] {
    const running: RanCall[] = [];
    for (const id of this.pending) {
      const ran = this.callsById.get(id)?.pending;
      if (ran) running.push(ran);
    }
    return running;
  }

  readonly pending = new Set<string>();
  readonly callsById = new Map<string, CallState>();

  mayRepeat(tool: string, digest: string): boolean {
    return (this.seen.get(seenKey(tool, digest)) ?? 0) > 0;
  }
}

const seenKey = (tool: string, digest: string) => `${tool}\u0000${digest}`;

/**
 * Replays one file's events. Scopes: the main conversation; each subagent,
 * whether its lines are 2.1 agent_progress copies (grouped by agent id),
 * 1.0 inline sidechains (contiguous runs, a new run at each subagent prompt),
 * or the whole file (`subagentFile`).
 */
export function replayEvents(events: readonly LocatedEvent[], options: ReplayOptions = {}): EventsReplay {
  const gated = options.gated === true;
  const config = options.config ?? defaultConfig();
  const scopes = new Map<string, ScopeRun>();
  const byCallId = new Map<string, { run: ScopeRun; call: CallState }>();
  const seenLines = new Set<string>();
  const delegations: Delegation[] = [];
  const errorCount = new Map<ScopeRun, number>();
  let inlineRun: ScopeRun | undefined;
  let inlineRuns = 0;
  let lines = 0;

  const scopeFor = (event: LocatedEvent): ScopeRun => {
    if (options.subagentFile) {
      const agentId = options.subagentFile.agentId ?? event.agentId;
      return getScope(agentId ? `agent:${agentId}` : "subagent", "subagent", "subagent_file", agentId);
    }
    if (!event.sidechain) {
      inlineRun = undefined;
      return getScope("main", "main", "main");
    }
    if (event.agentId) return getScope(`agent:${event.agentId}`, "subagent", "inline", event.agentId);
    // 1.0: no agent id; a subagent's lines are contiguous, and each begins with its prompt.
    const startsAgent = event.kind === "user_text" && event.isPrompt && inlineRun !== undefined && inlineRun.lastLine > 0;
    if (!inlineRun || startsAgent) {
      inlineRuns += 1;
      inlineRun = getScope(`sidechain:${inlineRuns}`, "subagent", "inline");
    }
    return inlineRun;
  };

  function getScope(id: string, scope: "main" | "subagent", source: ScopeSource, agentId?: string): ScopeRun {
    let run = scopes.get(id);
    if (!run) {
      run = new ScopeRun(id, scope, source, gated, agentId);
      scopes.set(id, run);
    }
    return run;
  }

  for (const event of events) {
    const line = event.lineNo ?? 0;
    if (line > lines) lines = line;
    // A line written twice (same uuid) counts once, as the hooks' reader does.
    if (event.uuid !== undefined && event.kind === "assistant") {
      const key = `${event.uuid}\u0000${event.messageId}`;
      if (seenLines.has(key)) continue;
      seenLines.add(key);
    }
    if (event.kind === "tool_result") {
      // A result belongs to its call's scope, wherever it is written.
      const found = byCallId.get(event.toolUseId);
      if (!found || found.call.resultBytes !== undefined) continue;
      found.run.touch(line);
      found.call.resultBytes = event.bytes;
      const pending = found.call.pending;
      delete found.call.pending;
      found.run.pending.delete(event.toolUseId);
      if (pending) {
        const jobId = pending.effect.kind === "exec" && pending.effect.background ? launchedJobId(event.text) : undefined;
        found.run.ran({ ...pending, ...(jobId ? { jobId } : {}), ...(event.isError ? { failed: true } : {}) });
      }
      // A stop of a background job, or a poll that shows it finished, records its end (SPEC §7), as in the hooks.
      const end = event.isError ? undefined : callEnd(found.call.tool, found.call.input, event.text);
      if (end) found.run.history = endJob(found.run.history, end, found.run.calls.length);
      if (event.isError) errorCount.set(found.run, (errorCount.get(found.run) ?? 0) + 1);
      continue;
    }
    const run = scopeFor(event);
    run.touch(line);
    if (event.kind === "compact") {
      run.compact(event.source);
      continue;
    }
    run.afterBoundary = false;
    if (event.kind === "user_text") {
      const ended = event.lineKind === "notification" ? notificationEnd(event.text) : undefined;
      if (ended) run.history = endJob(run.history, ended, run.calls.length);
      if (!event.isPrompt) continue;
      if (run.scope === "main") run.startTask();
      else if (run.task === 0) run.startTask();
      if (run.prompt === undefined) run.prompt = event.text;
      continue;
    }
    // An assistant line: text blocks govern the calls after them in the same message.
    const message = run.message(event.messageId);
    for (const block of event.blocks) {
      if (block.type === "text") {
        message.texts.push(block.text);
        continue;
      }
      if (byCallId.has(block.id)) continue; // the same tool_use id written again
      const call = takeCall(run, block.id, block.name, block.input, line, message.texts.join("\n\n"));
      byCallId.set(block.id, { run, call });
      if (run.scope === "main" && (DELEGATE_TOOLS as readonly string[]).includes(block.name)) delegations.push(delegationOf(call));
    }
  }

  function takeCall(run: ScopeRun, id: string, tool: string, input: unknown, line: number, reportText: string): CallState {
    if (run.task === 0) run.startTask();
    const neutral = isNeutralTool(tool);
    const digest = inputDigest(input);
    const effect = effectOf(tool, input);
    if (!neutral) run.step += 1;
    const ref: CallRef = { toolUseId: id, line, index: run.calls.length + 1, task: run.task, step: neutral ? 0 : run.step };
    const call: CallState = { ref, tool, input, digest };
    run.calls.push(call);
    run.tools[tool] = (run.tools[tool] ?? 0) + 1;
    if (neutral) {
      if (run.gate) run.gate.neutral += 1;
      return call; // the hooks neither count nor remember neutral tools
    }
    const repeat = run.mayRepeat(tool, digest) ? findExactRepeat(run.history, { tool, digest, effect }, run.inFlight()) : undefined;
    if (repeat) {
      const first = run.calls[repeat.previous.at - 1]!;
      call.repeatOf = first;
      run.repeats.push({ first, repeat: call });
    }
    if (run.gate) {
      const decision = decideToolCall({
        scope: run.scope === "main" ? "self" : "subagent",
        gated: true,
        reportText,
        tool,
        step: run.gatedStep,
        config,
        extraTools: {},
        ...(repeat ? { repeat } : {}),
      });
      if (decision.decision === "refused") {
        run.gate.refused += 1;
        run.gate.byRule[decision.rule] = (run.gate.byRule[decision.rule] ?? 0) + 1;
        run.gate.refusals.push({ call: ref, tool, rule: decision.rule, reason: decision.reason, stepsBefore: run.gatedStep });
      } else {
        run.gate.passed += 1;
        run.gatedStep += 1;
      }
    }
    // The recorded session went on as it did: the call ran, so it is remembered once its result is back.
    call.pending = { tool, digest, effect, at: ref.index, toolUseId: id };
    run.pending.add(id);
    run.callsById.set(id, call);
    return call;
  }

  const runs = [...scopes.values()];
  const prompts: Record<string, string> = {};
  for (const run of runs) if (run.scope === "subagent" && run.prompt !== undefined) prompts[run.id] = run.prompt;
  const reports = runs.map((run) => scopeReport(run, errorCount.get(run) ?? 0));
  linkSubagents(reports, prompts, delegations);
  return { scopes: reports, delegations, prompts, lines };
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
  const repeats: RepeatFinding[] = run.repeats.map(({ first, repeat }) => {
    const resultBytes = repeat.resultBytes ?? 0;
    return { tool: repeat.tool, input: repeat.input, digest: repeat.digest, first: first.ref, repeat: repeat.ref, resultBytes, tokens: estimateTokens(resultBytes) };
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
    tasks: run.task,
    compactions: run.compactions,
    unanswered: run.calls.filter((call) => call.resultBytes === undefined).length,
    errors,
    repeats,
    repeatTokens: repeats.reduce((sum, r) => sum + r.tokens, 0),
  };
  if (run.gate) report.gate = run.gate;
  return report;
}

/** Links each subagent scope to the main scope's delegating call whose prompt it received (first match, each call once). */
export function linkSubagents(scopes: readonly ScopeReplay[], prompts: Record<string, string>, delegations: readonly Delegation[]): void {
  const used = new Set<string>();
  for (const scope of scopes) {
    const prompt = prompts[scope.id]?.trim();
    if (scope.scope !== "subagent" || scope.spawnedBy || prompt === undefined) continue;
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
