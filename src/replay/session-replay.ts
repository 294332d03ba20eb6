// One session's events replayed (./core.ts's replayEvents and replaySession):
// each line to its scope, in the order Claude Code wrote them. The machine's
// state is ./machine.ts; when a call is decided, ./waiting-calls.ts; how,
// ./call-decider.ts; the main scope's tasks, ./task-trail.ts.
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { isCompactionAgentId, isCompactionPrompt } from "../engine/session/compaction.js";
import { agentKey, type ScopeKey, type SessionEvent } from "../engine/session/events.js";
import { marksLocalCommand } from "../engine/session/prompt-kind.js";
import { scopeAt } from "../engine/session/reduce.js";
import { promptKey, readPrompt, typedText } from "../ingest/prompts.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import { resultDigest } from "../transcript/scope-events.js";
import { CallDecider } from "./call-decider.js";
import { ReplayMachine } from "./machine.js";
import { linkSubagents, scopeReport, ScopeRun, type AssistantEvent } from "./scope-run.js";
import { TaskTrail } from "./task-trail.js";
import type { EventsReplay, ReplayOptions, ScopeSource, SubagentFile } from "./types.js";
import { WaitingCalls } from "./waiting-calls.js";

/** The lines that start a turn of the main scope: a Stop hook ran before each (src/engine/session/prompt-kind.ts). */
const TURN_STARTS: readonly string[] = ["typed", "notification", "wakeup", "stop-feedback"];

/** The result Claude Code writes for a call a PreToolUse hook refused (docs/claude-code-facts.md): the call never ran. */
const REFUSED_BY_A_HOOK = /^PreToolUse:\S+ hook error: /;

/** How many of a scope's newest messages keep their text blocks (a scope writes one message's lines together). */
const MESSAGES_REMEMBERED = 8;

const TURN_END_MAIN: SessionEvent = { kind: "scope", scope: "main", event: { kind: "turn_end", subagent: false } };

/** replayEvents' state across one session's events. */
export class Replay {
  private readonly machine: ReplayMachine;
  private readonly trail: TaskTrail;
  private readonly decider: CallDecider;
  private readonly waiting: WaitingCalls;
  private readonly seenLines = new Set<string>();
  readonly scopeFiles = new Map<string, number>();
  private inlineRun: ScopeRun | undefined;
  private inlineRuns = 0;
  private lines = 0;
  /** Files (by index) read far enough to know whether they are a compaction's, and those that are (src/engine/session/compaction.ts). */
  private readonly filesKnown = new Set<number>();
  private readonly compactionFiles = new Set<number>();
  /** Prompt ids of commands Claude Code ran itself (a compaction, a local command): no UserPromptSubmit vouched for them. */
  private readonly commandPrompts = new Set<string>();

  constructor(private readonly options: ReplayOptions) {
    this.trail = new TaskTrail(withOverride(DEFAULT_PRICES, options.user?.prices));
    this.machine = new ReplayMachine(options);
    this.decider = new CallDecider(this.machine, this.trail, options);
    this.waiting = new WaitingCalls((run, block, at) => this.decider.toolUse(run, block, at));
  }

  event(located: LocatedEvent, subagentFile: SubagentFile | undefined, file = 0): void {
    const line = located.lineNo ?? 0;
    if (line > this.lines) this.lines = line;
    if (this.isCompactionFile(located, subagentFile, file)) return;
    this.lineOf(this.asCommand(located), subagentFile, file, line);
  }

  private lineOf(event: LocatedEvent, subagentFile: SubagentFile | undefined, file: number, line: number): void {
    if (event.kind === "assistant" && this.seenBefore(event)) return;
    if (event.kind === "tool_result") {
      this.waiting.decideWaiting(event);
      return this.toolResult(event, line);
    }
    const known = this.machine.runs.size;
    const run = this.scopeFor(event, subagentFile, file);
    if (this.machine.runs.size > known && run.key !== "main") this.started(run, subagentFile);
    this.waiting.decideWaiting(event, run);
    this.turnEnded(run, event);
    run.touch(line);
    this.countCompaction(run, event);
    if (event.kind === "user_text") this.userText(run, event);
    this.startFirstTask(run, event);
    this.machine.feed(run, this.machine.ingested(event, run.key));
    if (run.key === "main") this.trail.noteTask(this.machine.session, event, line);
    if (event.kind === "assistant") this.assistant(run, event, line);
  }

  /**
   * A subagent file Claude Code wrote for a compaction (older versions; its
   * agent id `acompact-…`, or its first prompt the compaction request): no
   * subagent, as the hooks count none (SubagentStop, src/hooks/stop.ts).
   */
  private isCompactionFile(event: LocatedEvent, subagentFile: SubagentFile | undefined, file: number): boolean {
    if (!subagentFile) return false;
    if (!this.filesKnown.has(file)) {
      const agentId = subagentFile.agentId ?? event.agentId;
      const prompt = event.kind === "user_text" ? event.text : undefined;
      if (agentId === undefined && prompt === undefined) return false;
      this.filesKnown.add(file);
      if ((agentId !== undefined && isCompactionAgentId(agentId)) || (prompt !== undefined && isCompactionPrompt(prompt)))
        this.compactionFiles.add(file);
    }
    return this.compactionFiles.has(file);
  }

  /** A main-scope line that looks typed but shares its prompt id with a compaction or a local command's caveat is that command's: no prompt. */
  private asCommand(event: LocatedEvent): LocatedEvent {
    if (event.kind !== "user_text" || event.sidechain || event.promptId === undefined) return event;
    if (marksLocalCommand(event.lineKind, event.text)) this.commandPrompts.add(event.promptId);
    if (event.isPrompt && this.commandPrompts.has(event.promptId)) return { ...event, lineKind: "command", isPrompt: false };
    return event;
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
    const found = this.decider.byCallId.get(event.toolUseId);
    if (!found || found.call.resultBytes !== undefined) return;
    const { run, call } = found;
    run.touch(line);
    call.resultBytes = event.bytes;
    if (event.isError) run.errors += 1;
    this.machine.feed(run, this.machine.ingested(event, run.key));
    // Refused by the replayed gate: a recording made under the gate never ran it (its result is the refusal); one made without it did.
    const digest = resultDigest(event, this.options.sha256);
    if (call.refused && !REFUSED_BY_A_HOOK.test(event.text))
      this.machine.feed(run, [
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
    this.machine.feed(run, [
      // The user typed again: the turn before ended (the hooks' Stop): what it let through and never saw run did not run.
      ...(this.machine.session.main.task > 0 ? [TURN_END_MAIN] : []),
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
    this.machine.feed(run, [{ kind: "scope", scope: "main", event: { kind: "turn_end", subagent: false } }]);
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
    this.machine.feed(run, [{ kind: "scope", scope: "main", event: { kind: "prompt", typed: true } }]);
  }

  /**
   * An assistant line: text blocks govern the calls after them in the same
   * message (SPEC §4). Its calls wait to be decided at the moment Claude Code
   * runs their PreToolUse (see WaitingCalls.decideWaiting).
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
      else if (!this.decider.byCallId.has(block.id) && !this.waiting.has(block.id))
        this.waiting.wait(run, block, {
          line,
          texts: texts.join("\n\n"),
          messageId: event.messageId,
          ...(event.model ? { model: event.model } : {}),
        });
    }
  }

  private scopeFor(event: LocatedEvent, subagentFile: SubagentFile | undefined, file: number): ScopeRun {
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
    let run = this.machine.runs.get(key);
    if (!run) {
      run = new ScopeRun(key, id, key === "main" ? "main" : "agent", source, agentId);
      this.machine.runs.set(key, run);
      this.scopeFiles.set(id, file);
    }
    return run;
  }

  /**
   * A subagent's first line: the call that launched it ran its PreToolUse
   * before it started (SubagentStart), so the earliest waiting call that can
   * launch one is decided first, then the start is counted, with the
   * definition of its type, as the hooks load it then (gated from its start
   * when it opts in).
   */
  private started(run: ScopeRun, file: SubagentFile | undefined): void {
    this.waiting.decideLauncher();
    const agentId = run.key.slice("agent:".length);
    const { agentType, definition } = file ?? {};
    this.machine.feed(run, [
      { kind: "subagent_started", agentId },
      ...(agentType !== undefined
        ? [{ kind: "definition_loaded" as const, agentId, agentType, ...(definition ? { definition } : {}) }]
        : []),
    ]);
  }

  result(): EventsReplay {
    this.waiting.decideWaiting();
    // The recording ends every scope's loop (Stop, SubagentStop): calls that never came back did not run.
    for (const run of this.machine.runs.values())
      this.machine.feed(run, [{ kind: "scope", scope: run.key, event: { kind: "turn_end", subagent: run.key !== "main" } }]);
    const runs = [...this.machine.runs.values()];
    const prompts: Record<string, string> = {};
    for (const run of runs) if (run.scope === "agent" && run.prompt !== undefined) prompts[run.id] = run.prompt;
    const reports = runs.map((run) => scopeReport(run, scopeAt(this.machine.session, run.key)));
    linkSubagents(reports, prompts, this.decider.delegations);
    return {
      scopes: reports,
      delegations: this.decider.delegations,
      prompts,
      lines: this.lines,
      session: this.machine.session,
      tasks: this.trail.tasks,
      agentTrails: this.trail.agents,
    };
  }
}
