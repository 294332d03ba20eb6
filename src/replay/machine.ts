// The session machine as replay drives it (./session-replay.ts): its state,
// fed events scope by scope, and each scope's run (./scope-run.ts), which
// keeps what the machine found. Ingestion happens here, with the one I/O
// replay does: a loaded skill's file is read (ReplayOptions.skillSource).
import { manualSource } from "../engine/gate-policy.js";
import { planConfirmed, type PlanOptions, type PlannedCall } from "../engine/session/call-plan.js";
import type { SessionDecision } from "../engine/session/decide.js";
import type { ScopeKey, SessionEvent } from "../engine/session/events.js";
import { reduceAll, scopeAt, type Reduction, type ScopedOutcome } from "../engine/session/reduce.js";
import { newScope, newSession, type GateSource, type SessionState } from "../engine/session/state.js";
import type { Spend } from "../engine/spend.js";
import { ingestEvent } from "../ingest/transcript.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { ScopeRun, ToolUseBlock } from "./scope-run.js";
import type { ReplayOptions } from "./types.js";

export class ReplayMachine {
  session: SessionState;
  readonly runs = new Map<ScopeKey, ScopeRun>();

  constructor(private readonly options: ReplayOptions) {
    // A session replayed from its start: its first prompt starts task 1, as with the hooks.
    this.session = { ...newSession("replay"), main: newScope(0) };
  }

  feed(run: ScopeRun, events: readonly SessionEvent[]): Reduction {
    // Replay keeps no earlier state: the machine may change it in place (the same fold, without copies).
    const reduced = reduceAll(this.session, events, { transient: true });
    this.session = reduced.session;
    for (const outcome of reduced.outcomes) this.identicalOutcome(outcome);
    this.spendOf(run);
    return reduced;
  }

  /** The scope's task spend as the machine now counts it. */
  private spendOf(run: ScopeRun): void {
    const scope = scopeAt(this.session, run.key);
    if (scope.spend) this.runOf(run.key)?.taskSpend.set(scope.task, scope.spend as Spend);
  }

  runOf(key: ScopeKey): ScopeRun | undefined {
    return this.runs.get(key);
  }

  /** What ingestion makes of a line, its skills read here (replay's I/O is the skill files only). */
  ingested(event: LocatedEvent, key: ScopeKey): SessionEvent[] {
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
   * The source of the skill a Skill call names, when it was loaded before:
   * the hooks learn the skill from the call (PreToolUse) and load it at its
   * result; replay, with no hook, takes the source seen at the earlier load
   * (a plugin's `p:name` by its name).
   */
  skillSourceOf(block: ToolUseBlock): GateSource | undefined {
    if (block.name !== "Skill" || block.input === null || typeof block.input !== "object") return undefined;
    const name = (block.input as Record<string, unknown>).skill;
    if (typeof name !== "string") return undefined;
    return this.skillsByName.get(name.trim().replace(/^\//, "").split(":").at(-1) ?? "");
  }

  /** A call planned after its arrival was fed (src/engine/session/call-plan.ts), its events reduced into the state in place. */
  plan(run: ScopeRun, call: PlannedCall, options: Omit<PlanOptions, "transient">): { decided: SessionDecision } {
    const planned = planConfirmed(this.session, run.key, call, { ...options, transient: true });
    this.session = planned.session;
    this.spendOf(run);
    return planned;
  }

  /** An outcome the machine found identical to the same call's last run (SPEC §13), as a finding of its scope. */
  private identicalOutcome(outcome: ScopedOutcome): void {
    if (!outcome.identical?.toolUseId) return;
    const run = this.runOf(outcome.scope);
    const call = run?.byId.get(outcome.toolUseId);
    const of = run?.byId.get(outcome.identical.toolUseId);
    if (run && call && of) run.identical.push({ call, of, ...(outcome.identical.retry ? { retry: true as const } : {}) });
  }
}
