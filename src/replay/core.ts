// Offline replay: a recorded session's events through the same session machine
// the hooks run (src/engine/session/), with one declared difference of policy
// (REPLAY_POLICY). Pure: events in, findings out. The file layer is ./files.ts.
import { manualSource } from "../engine/gate-policy.js";
import { effectOf, type Sha256Hex } from "../engine/redundancy.js";
import { decideInSession, type SessionDecision, type UserSettings } from "../engine/session/decide.js";
import { agentKey, type ScopeKey, type SessionEvent } from "../engine/session/events.js";
import { reduceAll, scopeAt, type Reduction, type ScopedOutcome } from "../engine/session/reduce.js";
import { newScope, newSession, type GateSource, type SessionState } from "../engine/session/state.js";
import { gateOf, rootSpendOf, rootTaskOf } from "../engine/session/views.js";
import { DEFAULT_PRICES, estimateCostUsd, withOverride, type PriceTable } from "../engine/prices.js";
import { defaultConfig, type Config } from "../engine/signals.js";
import { totalTokens, type Spend } from "../engine/spend.js";
import { DELEGATE_TOOLS, isReadOnlyTool } from "../engine/tools.js";
import { promptKey, readPrompt, typedText } from "../ingest/prompts.js";
import { ingestEvent } from "../ingest/transcript.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import { mergeByTime } from "./merge.js";
import type { CallRef, ScopeReplay, ScopeSource, TaskReplay } from "./types.js";
import { resultDigest } from "../transcript/scope-events.js";
import {
  countGate,
  decidedCall,
  delegationOf,
  keptInput,
  linkSubagents,
  scopeReport,
  ScopeRun,
  type AssistantEvent,
  type CallState,
  type Delegation,
  type ToolUseBlock,
} from "./scope-run.js";

export type { Delegation } from "./scope-run.js";

/** What replay does differently from the hooks, and says so in its output (SPEC §15). */
export const REPLAY_POLICY =
  "no hook input exists offline: a user line that looks typed counts as vouched for by UserPromptSubmit; skills are read from the folders the transcript names, when they still exist; a Skill call counts as loading text only (what its skill runs or forks is not judged offline); a window budget across sessions is not replayed (the other sessions' spend is not in the transcript)";

export interface ReplayOptions {
  /** Also gate every scope (the default configuration, or `config`): "what if every scope were gated". */
  gated?: boolean;
  config?: Config;
  /** The events are a subagent's own file: every line is that one scope. */
  subagentFile?: { agentId?: string };
  /** A skill's opt-in from its SKILL.md, as the hooks read it; undefined when the file is gone or opts in to nothing. */
  skillSource?: (skillFile: string) => GateSource | undefined;
  /** The user's settings to replay budgets under (default: none). */
  user?: UserSettings;
  /** How call inputs are hashed for their digests (default: the engine's own SHA-256; the file layer passes node:crypto's, the same digests faster). */
  sha256?: Sha256Hex;
}

export interface EventsReplay {
  scopes: ScopeReplay[];
  /** Delegating calls of the main scope, in order. */
  delegations: Delegation[];
  /** The first prompt each subagent scope received, by scope id (to link it to a delegation). */
  prompts: Record<string, string>;
  /** Highest line number seen. */
  lines: number;
  /** The session machine's state at the end: what every surface reads. */
  session: SessionState;
  /** The main scope's tasks, in order: each one's prompt and the spend its budgets would have been checked against, call by call. */
  tasks: TaskReplay[];
}

/** The lines that start a turn of the main scope: a Stop hook ran before each (src/engine/session/prompt-kind.ts). */
const TURN_STARTS: readonly string[] = ["typed", "notification", "wakeup", "stop-feedback"];

/** The result Claude Code writes for a call a PreToolUse hook refused (docs/claude-code-facts.md): the call never ran. */
const REFUSED_BY_A_HOOK = /^PreToolUse:\S+ hook error: /;

/** One file's events, replayed as one session (see replaySession for several files). */
export function replayEvents(events: Iterable<LocatedEvent>, options: ReplayOptions = {}): EventsReplay {
  const replay = new Replay(options);
  for (const event of events) replay.event(event, options.subagentFile);
  return replay.result();
}

/** One file of a session: its events (read as they are consumed), and whose they are when it is a subagent's own file. */
export interface SessionInput {
  events: Iterable<LocatedEvent>;
  subagentFile?: { agentId?: string };
}

/**
 * One session's files merged in time order (the session file first, then its
 * subagents' files), through one machine, one event at a time: no file is
 * ever held whole (./merge.ts). A subagent with its own file is read from it,
 * not from its copies in the session file.
 */
export function replaySession(
  inputs: readonly SessionInput[],
  options: ReplayOptions = {},
): EventsReplay & { scopeFiles: Map<string, number>; fileLines: number[] } {
  const replay = new Replay(options);
  const own = new Set(inputs.slice(1).flatMap((input) => (input.subagentFile?.agentId !== undefined ? [input.subagentFile.agentId] : [])));
  const fileLines: number[] = [];
  for (const { event, file } of mergeByTime(
    inputs.map((input) => input.events),
    own,
    fileLines,
  ))
    replay.event(event, inputs[file]!.subagentFile, file);
  return { ...replay.result(), scopeFiles: replay.scopeFiles, fileLines };
}

/** How many of a scope's newest messages keep their text blocks (a scope writes one message's lines together). */
const MESSAGES_REMEMBERED = 8;
/** How much of a task's prompt is kept (to name the task). */
const PROMPT_KEPT = 240;

/** A call that may start a subagent: a delegating tool, or a Skill (a forked skill runs in one). */
const launches = (tool: string) => (DELEGATE_TOOLS as readonly string[]).includes(tool) || tool === "Skill";
/** Where a call was written, and the text that governs it. */
interface WaitingAt {
  line: number;
  texts: string;
  messageId: string;
  model?: string;
}

const NO_SETTINGS: UserSettings = { budgets: {} };
const TURN_END_MAIN: SessionEvent = { kind: "scope", scope: "main", event: { kind: "turn_end", subagent: false } };

/** replayEvents' state across one session's events. */
class Replay {
  private session: SessionState;
  private readonly forcedGate: GateSource | undefined;
  private readonly runs = new Map<ScopeKey, ScopeRun>();
  private readonly byCallId = new Map<string, { run: ScopeRun; call: CallState }>();
  private readonly seenLines = new Set<string>();
  private readonly delegations: Delegation[] = [];
  readonly scopeFiles = new Map<string, number>();
  private inlineRun: ScopeRun | undefined;
  private inlineRuns = 0;
  private lines = 0;
  private readonly tasks: TaskReplay[] = [];
  private readonly prices: PriceTable;

  constructor(private readonly options: ReplayOptions) {
    this.prices = withOverride(DEFAULT_PRICES, options.user?.prices);
    // A session replayed from its start: its first prompt starts task 1, as with the hooks.
    this.session = { ...newSession("replay"), main: newScope(0) };
    this.forcedGate = options.gated
      ? { ...manualSource(), file: "utility replay --gated", config: options.config ?? defaultConfig() }
      : undefined;
  }

  event(event: LocatedEvent, subagentFile: { agentId?: string } | undefined, file = 0): void {
    const line = event.lineNo ?? 0;
    if (line > this.lines) this.lines = line;
    if (event.kind === "assistant" && this.seenBefore(event)) return;
    if (event.kind === "tool_result") {
      this.decideWaiting(event);
      return this.toolResult(event, line);
    }
    const known = this.runs.size;
    const run = this.scopeFor(event, subagentFile, file);
    if (this.runs.size > known && run.key !== "main") this.started(run);
    this.decideWaiting(event, run);
    this.turnEnded(run, event);
    run.touch(line);
    this.countCompaction(run, event);
    if (event.kind === "user_text") this.userText(run, event);
    this.startFirstTask(run, event);
    this.feed(run, this.ingested(event, run.key));
    if (run.key === "main") this.noteTask(event, line);
    if (event.kind === "assistant") this.assistant(run, event, line);
  }

  /** A main-scope line that started a task (a typed prompt, or the first line of a resumed session): the task is named by its prompt. */
  private noteTask(event: LocatedEvent, line: number): void {
    const task = this.session.main.task;
    if (task === 0 || this.tasks.at(-1)?.task === task) return;
    const prompt = event.kind === "user_text" && event.isPrompt ? typedText(event.text).slice(0, PROMPT_KEPT) : undefined;
    this.tasks.push({
      task,
      line,
      ...(prompt !== undefined ? { prompt } : {}),
      ...(event.timestamp !== undefined ? { startedAt: event.timestamp } : {}),
      trail: [],
    });
  }

  /** What the task at the root of `key`'s tree has spent before a call: what its budgets are checked against (SPEC §12). */
  private noteSpentBefore(key: ScopeKey): void {
    const rootTask = rootTaskOf(this.session, key);
    let task: TaskReplay | undefined;
    for (let i = this.tasks.length - 1; i >= 0 && task === undefined; i--) if (this.tasks[i]!.task === rootTask) task = this.tasks[i];
    if (!task) return;
    const spent = rootSpendOf(this.session, key);
    task.trail.push({ tokens: totalTokens(spent.tokens), costUsd: estimateCostUsd(spent.byModel, this.prices) });
  }

  private feed(run: ScopeRun, events: readonly SessionEvent[]): Reduction {
    // Replay keeps no earlier state: the machine may change it in place (the same fold, without copies).
    const reduced = reduceAll(this.session, events, { transient: true });
    this.session = reduced.session;
    for (const outcome of reduced.outcomes) this.identicalOutcome(outcome);
    const scope = scopeAt(this.session, run.key);
    if (scope.spend) this.runOf(run.key)?.taskSpend.set(scope.task, scope.spend as Spend);
    return reduced;
  }

  private runOf(key: ScopeKey): ScopeRun | undefined {
    return this.runs.get(key);
  }

  /** What ingestion makes of a line, its skills read here (replay's I/O is the skill files only). */
  private ingested(event: LocatedEvent, key: ScopeKey): SessionEvent[] {
    const events: SessionEvent[] = [];
    for (const item of ingestEvent(event, key, this.options.sha256)) {
      if (item.kind !== "skill_seen") {
        if (item.kind === "scope" && item.event.kind === "usage") this.runOf(key)?.spendingMessages.add(item.event.messageId);
        events.push(item);
        continue;
      }
      const folder = item.folder.replace(/\/+$/, "");
      const file = `${folder}/SKILL.md`;
      const source = this.options.skillSource?.(file) ?? { ...manualSource(), file, gated: false };
      this.skillsByName.set(folder.slice(folder.lastIndexOf("/") + 1), source);
      events.push({ kind: "skill_loaded", scope: item.scope, source });
    }
    return events;
  }

  /** The skills loaded so far, by folder name: a skill loaded again writes no "Base directory" line, only its Skill call. */
  private readonly skillsByName = new Map<string, GateSource>();

  /**
   * A Skill call that names a skill loaded before: the hooks learn the skill
   * from the call (PreToolUse) and load it at its result; replay, with no
   * hook, takes the source seen at the earlier load (a plugin's `p:name` by its name).
   */
  private skillCallEvents(run: ScopeRun, block: ToolUseBlock, decided: SessionDecision): SessionEvent[] {
    if (decided.decision.decision === "refused" || block.name !== "Skill") return [];
    if (block.input === null || typeof block.input !== "object") return [];
    const name = (block.input as Record<string, unknown>).skill;
    if (typeof name !== "string") return [];
    const source = this.skillsByName.get(name.trim().replace(/^\//, "").split(":").at(-1) ?? "");
    return source ? [{ kind: "activation_awaited", scope: run.key, toolUseId: block.id, source }] : [];
  }

  /** An outcome the machine found identical to the same call's last run (SPEC §13), as a finding of its scope. */
  private identicalOutcome(outcome: ScopedOutcome): void {
    if (!outcome.identical?.toolUseId) return;
    const run = this.runOf(outcome.scope);
    const call = run?.byId.get(outcome.toolUseId);
    const of = run?.byId.get(outcome.identical.toolUseId);
    if (run && call && of) run.identical.push({ call, of });
  }

  /** A line written twice (same uuid) counts once, as the hooks' reader does. */
  private seenBefore(event: AssistantEvent): boolean {
    if (event.uuid === undefined) return false;
    const key = `${event.uuid}\u0000${event.messageId}`;
    if (this.seenLines.has(key)) return true;
    this.seenLines.add(key);
    return false;
  }

  /** A compact_boundary line and the summary line after it are one compaction. */
  private countCompaction(run: ScopeRun, event: LocatedEvent): void {
    if (event.kind !== "compact") {
      run.afterBoundary = false;
      return;
    }
    if (event.source === "boundary" || !run.afterBoundary) run.compactions += 1;
    run.afterBoundary = event.source === "boundary";
  }

  /** A result belongs to its call's scope, wherever it is written. */
  private toolResult(event: Extract<LocatedEvent, { kind: "tool_result" }>, line: number): void {
    const found = this.byCallId.get(event.toolUseId);
    if (!found || found.call.resultBytes !== undefined) return;
    const { run, call } = found;
    run.touch(line);
    call.resultBytes = event.bytes;
    if (event.isError) run.errors += 1;
    this.feed(run, this.ingested(event, run.key));
    // Refused by the replayed gate: a recording made under the gate never ran it (its result is the refusal); one made without it did.
    const digest = resultDigest(event, this.options.sha256);
    if (call.refused && !REFUSED_BY_A_HOOK.test(event.text))
      this.feed(run, [
        {
          kind: "scope",
          scope: run.key,
          event: {
            kind: "ran_unchecked",
            tool: call.tool,
            digest: call.digest,
            effect: call.effect,
            toolUseId: event.toolUseId,
            failed: event.isError,
            ...(digest !== undefined ? { result: digest } : {}),
          },
        },
      ]);
  }

  /** Replay's policy: a main-scope line that looks typed was typed (the hooks have UserPromptSubmit to vouch for it). */
  private userText(run: ScopeRun, event: Extract<LocatedEvent, { kind: "user_text" }>): void {
    if (event.isPrompt && run.prompt === undefined && run.key !== "main") run.prompt = event.text;
    if (run.key !== "main" || !event.isPrompt) return;
    const prompt = readPrompt(typedText(event.text));
    this.feed(run, [
      // The user typed again: the turn before ended (the hooks' Stop): what it let through and never saw run did not run.
      ...(this.session.main.task > 0 ? [TURN_END_MAIN] : []),
      {
        kind: "prompt_vouched",
        key: promptKey(event.promptId),
        own: prompt.own,
        slash: prompt.slash,
        ...(prompt.switch ? { switch: prompt.switch } : {}),
      },
    ]);
  }

  private mainSeen = false;

  /**
   * A main-scope line that starts a turn (a prompt, a notification, a wakeup,
   * a Stop hook's feedback): the turn before it ended, and Claude Code ran
   * its Stop hook, whose `turn_end` takes the calls that never ran off the
   * count, as the hooks do. (Not after an interrupt, where Claude Code runs
   * no Stop hook: replay cannot tell one from the transcript.)
   */
  private turnEnded(run: ScopeRun, event: LocatedEvent): void {
    if (run.key !== "main" || !this.mainSeen || event.kind !== "user_text" || !TURN_STARTS.includes(event.lineKind)) return;
    if (event.queued === true) return;
    this.feed(run, [{ kind: "scope", scope: "main", event: { kind: "turn_end", subagent: false } }]);
  }

  /**
   * The hooks' state starts at task 0 with a session's first prompt
   * (UserPromptSubmit), and at task 1 when the first hook is a tool call's (a
   * resumed session). A recording that starts with anything but a prompt
   * line (the model's turn: resumed, or cut) starts at task 1 too.
   */
  private startFirstTask(run: ScopeRun, event: LocatedEvent): void {
    if (run.key !== "main" || this.mainSeen) return;
    this.mainSeen = true;
    if (event.kind === "user_text" && event.lineKind !== "meta") return;
    this.feed(run, [{ kind: "scope", scope: "main", event: { kind: "prompt", typed: true } }]);
  }

  /**
   * An assistant line: text blocks govern the calls after them in the same
   * message (SPEC §4). Its calls wait to be decided at the moment Claude Code
   * runs their PreToolUse (see decideWaiting).
   */
  private assistant(run: ScopeRun, event: AssistantEvent, line: number): void {
    let texts = run.messageTexts.get(event.messageId);
    if (texts === undefined) {
      texts = [];
      run.messageTexts.set(event.messageId, texts);
      if (run.messageTexts.size > MESSAGES_REMEMBERED) run.messageTexts.delete(run.messageTexts.keys().next().value!);
    }
    for (const block of event.blocks) {
      if (block.type === "text") texts.push(block.text);
      else if (!this.byCallId.has(block.id) && !this.waiting.some((w) => w.block.id === block.id))
        this.wait(run, block, {
          line,
          texts: texts.join("\n\n"),
          messageId: event.messageId,
          ...(event.model ? { model: event.model } : {}),
        });
    }
  }

  /** Calls written but not yet decided, in order, each with its batch (see decideWaiting). */
  private waiting: Array<{ run: ScopeRun; block: ToolUseBlock; at: WaitingAt; batch: number }> = [];
  private batches = 0;

  /** Consecutive read-only calls of one message run together (their hooks first); any other call runs alone. */
  private wait(run: ScopeRun, block: ToolUseBlock, at: WaitingAt): void {
    const last = this.waiting.at(-1);
    const together =
      last !== undefined &&
      last.run === run &&
      last.at.messageId === at.messageId &&
      isReadOnlyTool(last.block.name) &&
      isReadOnlyTool(block.name);
    this.waiting.push({ run, block, at, batch: together ? last.batch : ++this.batches });
  }

  /**
   * Replay's timing model of Claude Code (docs/claude-code-facts.md): a
   * message's lines are all written before any call runs; its calls run
   * batch by batch (read-only calls together, others alone), each batch's
   * PreToolUse hooks seeing every line written before the batch's first
   * result (a skill an earlier call loaded included). So a batch is decided
   * at its first result; the batch of a call that may launch a subagent at
   * that subagent's first line (see started); and every batch of a scope at
   * its next message, prompt or compaction, or at the end.
   */
  private decideWaiting(event?: LocatedEvent, run?: ScopeRun): void {
    if (this.waiting.length === 0) return; // most lines: no call is waiting
    for (const scope of new Set(this.waiting.map((w) => w.run))) {
      const upTo = this.decidedBy(scope, event, run);
      if (upTo !== undefined) this.decideUpTo(scope, upTo);
    }
  }

  private decideUpTo(scope: ScopeRun, upTo: number): void {
    const now = this.waiting.filter((w) => w.run === scope && w.batch <= upTo);
    this.waiting = this.waiting.filter((w) => !now.includes(w));
    for (const { block, at } of now) this.toolUse(scope, block, at);
  }

  /** The last of `scope`'s waiting batches that `event` (a line of scope `run`) makes Claude Code decide, or undefined for none. */
  private decidedBy(scope: ScopeRun, event: LocatedEvent | undefined, run: ScopeRun | undefined): number | undefined {
    const mine = this.waiting.filter((w) => w.run === scope);
    const first = mine[0]!;
    if (event === undefined) return Number.POSITIVE_INFINITY;
    if (event.kind === "tool_result") return mine.find((w) => w.block.id === event.toolUseId)?.batch;
    // Another scope's line decides nothing here (a new subagent's first line: see started).
    if (run !== scope) return undefined;
    if (event.kind === "assistant" && event.messageId === first.at.messageId) return undefined;
    if (event.kind === "user_text" && event.isMeta) return undefined;
    return Number.POSITIVE_INFINITY;
  }

  private toolUse(run: ScopeRun, block: ToolUseBlock, at: WaitingAt): void {
    if (this.forcedGate && !gateOf(this.session, run.key))
      this.feed(run, [{ kind: "skill_loaded", scope: run.key, source: this.forcedGate }]);
    const gate = gateOf(this.session, run.key);
    // The hooks read a gated call's own line before deciding: every earlier message's results are written by then.
    if (gate) this.feed(run, [{ kind: "call_line_seen", scope: run.key, toolUseId: block.id, messageId: at.messageId }]);
    const stepsBefore = scopeAt(this.session, run.key).step;
    const decided = decideInSession(
      this.session,
      run.key,
      {
        tool: block.name,
        input: block.input,
        toolUseId: block.id,
        reportText: at.texts,
        ...(at.model ? { model: at.model } : {}),
      },
      this.options.user ?? NO_SETTINGS,
      this.options.sha256,
    );
    // Deciding changes nothing: the spend the decision saw is still the state's until its events are fed.
    if (decided.decision.decision !== "neutral") this.noteSpentBefore(run.key);
    this.feed(run, decided.events);
    this.feed(run, this.skillCallEvents(run, block, decided));
    const call = this.remember(run, block, at.line, decided);
    if (decided.decision.decision !== "neutral") run.decided.push(decidedCall(this.session, run, block, decided));
    if (gate)
      countGate((run.gate ??= { passed: 0, refused: 0, neutral: 0, byRule: {}, refusals: [] }), decided.decision, {
        call: call.ref,
        tool: block.name,
        stepsBefore,
      });
    if (run.key === "main" && (DELEGATE_TOOLS as readonly string[]).includes(block.name))
      this.delegations.push(delegationOf(call, block.input));
  }

  private remember(run: ScopeRun, block: ToolUseBlock, line: number, decided: SessionDecision): CallState {
    const { decision } = decided;
    const scope = scopeAt(this.session, run.key);
    const uncounted = decision.decision === "neutral" || decision.decision === "refused";
    const ref: CallRef = { toolUseId: block.id, line, index: run.calls.length + 1, task: scope.task, step: uncounted ? 0 : scope.step };
    const effect = effectOf(block.name, block.input);
    const call: CallState = {
      ref,
      tool: block.name,
      input: keptInput(block.input, effect),
      digest: decided.digest,
      effect,
      ...(decision.decision === "refused" ? { refused: true } : {}),
    };
    run.calls.push(call);
    run.byId.set(block.id, call);
    this.byCallId.set(block.id, { run, call });
    run.tools[block.name] = (run.tools[block.name] ?? 0) + 1;
    const first = decided.repeat?.toolUseId !== undefined ? run.byId.get(decided.repeat.toolUseId) : undefined;
    if (first) {
      call.repeatOf = first;
      run.repeats.push({ first, repeat: call, input: block.input });
    }
    const runs = (decided.stuck ?? [])
      .flatMap((ran) => (ran.toolUseId !== undefined ? [run.byId.get(ran.toolUseId)] : []))
      .filter((found): found is CallState => found !== undefined);
    if (decided.stuck) run.stuck.push({ call, runs, refused: decision.decision === "refused" });
    return call;
  }

  private scopeFor(event: LocatedEvent, subagentFile: { agentId?: string } | undefined, file: number): ScopeRun {
    if (subagentFile) {
      const agentId = subagentFile.agentId ?? event.agentId;
      return this.run(
        agentId ? agentKey(agentId) : agentKey("subagent"),
        agentId ? `agent:${agentId}` : "subagent",
        "subagent_file",
        file,
        agentId,
      );
    }
    if (!event.sidechain) {
      this.inlineRun = undefined;
      return this.run("main", "main", "main", file);
    }
    if (event.agentId) return this.run(agentKey(event.agentId), `agent:${event.agentId}`, "inline", file, event.agentId);
    // 1.0: no agent id; a subagent's lines are contiguous, and each begins with its prompt.
    const startsAgent = event.kind === "user_text" && event.isPrompt && this.inlineRun !== undefined && this.inlineRun.lastLine > 0;
    if (!this.inlineRun || startsAgent) {
      this.inlineRuns += 1;
      this.inlineRun = this.run(agentKey(`sidechain-${this.inlineRuns}`), `sidechain:${this.inlineRuns}`, "inline", file);
    }
    return this.inlineRun;
  }

  private run(key: ScopeKey, id: string, source: ScopeSource, file: number, agentId?: string): ScopeRun {
    let run = this.runs.get(key);
    if (!run) {
      run = new ScopeRun(key, id, key === "main" ? "main" : "agent", source, agentId);
      this.runs.set(key, run);
      this.scopeFiles.set(id, file);
    }
    return run;
  }

  /**
   * A subagent's first line: the call that launched it ran its PreToolUse
   * before it started (SubagentStart), so the earliest waiting call that can
   * launch one is decided first, then the start is counted.
   */
  private started(run: ScopeRun): void {
    const launcher = this.waiting.find((w) => launches(w.block.name));
    if (launcher) this.decideUpTo(launcher.run, launcher.batch);
    this.feed(run, [{ kind: "subagent_started", agentId: run.key.slice("agent:".length) }]);
  }

  result(): EventsReplay {
    this.decideWaiting();
    // The recording ends every scope's loop (Stop, SubagentStop): calls that never came back did not run.
    for (const run of this.runs.values())
      this.feed(run, [{ kind: "scope", scope: run.key, event: { kind: "turn_end", subagent: run.key !== "main" } }]);
    const runs = [...this.runs.values()];
    const prompts: Record<string, string> = {};
    for (const run of runs) if (run.scope === "agent" && run.prompt !== undefined) prompts[run.id] = run.prompt;
    const reports = runs.map((run) => scopeReport(run, scopeAt(this.session, run.key)));
    linkSubagents(reports, prompts, this.delegations);
    return { scopes: reports, delegations: this.delegations, prompts, lines: this.lines, session: this.session, tasks: this.tasks };
  }
}
