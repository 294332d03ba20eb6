// A call replay has read, planned as the hooks' PreToolUse plans it (the
// session machine's planCall, in its two halves), when ./waiting-calls.ts says Claude
// Code ran the hook; then remembered in its scope's run (./scope-run.ts) with
// what the decision found: a repeat, a stuck loop, the gate's tally.
import { manualSource } from "../engine/gate-policy.js";
import { effectOf } from "../engine/redundancy.js";
import { arrival, type PlannedCall } from "../engine/session/call-plan.js";
import type { SessionDecision, UserSettings } from "../engine/session/decide.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { GateSource } from "../engine/session/state.js";
import { gateOf } from "../engine/session/views.js";
import { defaultConfig } from "../engine/signals.js";
import { DELEGATE_TOOLS } from "../engine/tools.js";
import type { ReplayMachine } from "./machine.js";
import { countGate, decidedCall, delegationOf, keptInput, type CallState, type ScopeRun, type ToolUseBlock } from "./scope-run.js";
import type { TaskTrail } from "./task-trail.js";
import type { CallRef, Delegation, ReplayOptions } from "./types.js";
import type { WaitingAt } from "./waiting-calls.js";

const NO_SETTINGS: UserSettings = { budgets: {} };

export class CallDecider {
  readonly byCallId = new Map<string, { run: ScopeRun; call: CallState }>();
  readonly delegations: Delegation[] = [];
  private readonly forcedGate: GateSource | undefined;

  constructor(
    private readonly machine: ReplayMachine,
    private readonly trail: TaskTrail,
    private readonly options: ReplayOptions,
  ) {
    this.forcedGate = options.gated
      ? { ...manualSource(), file: "utility replay --gated", config: options.config ?? defaultConfig() }
      : undefined;
  }

  toolUse(run: ScopeRun, block: ToolUseBlock, at: WaitingAt): void {
    if (this.forcedGate && !gateOf(this.machine.session, run.key))
      this.machine.feed(run, [{ kind: "skill_loaded", scope: run.key, source: this.forcedGate }]);
    const gate = gateOf(this.machine.session, run.key);
    const source = this.machine.skillSourceOf(block);
    const call: PlannedCall = {
      tool: block.name,
      input: block.input,
      toolUseId: block.id,
      text: { text: at.texts, messageId: at.messageId, ...(at.model ? { model: at.model } : {}) },
      ...(source ? { skill: { source } } : {}),
    };
    // The hooks read a gated call's own line before deciding: every earlier message's results are written by then.
    this.machine.feed(run, arrival(this.machine.session, run.key, call));
    const stepsBefore = scopeAt(this.machine.session, run.key).step;
    // What the call's budgets are checked against, before its own events change it (kept if it is decided).
    const spentBefore = this.trail.spentBefore(this.machine.session, run.key);
    const { decided } = this.machine.plan(run, call, { user: this.options.user ?? NO_SETTINGS, sha256: this.options.sha256 });
    if (decided.decision.decision !== "neutral") this.trail.note(spentBefore, run.id);
    const remembered = this.remember(run, block, at.line, decided);
    if (decided.decision.decision !== "neutral") run.decided.push(decidedCall(this.machine.session, run, block, decided));
    if (gate)
      countGate((run.gate ??= { passed: 0, refused: 0, neutral: 0, byRule: {}, refusals: [] }), decided.decision, {
        call: remembered.ref,
        tool: block.name,
        stepsBefore,
      });
    if (run.key === "main" && (DELEGATE_TOOLS as readonly string[]).includes(block.name))
      this.delegations.push(delegationOf(remembered, block.input));
  }

  private remember(run: ScopeRun, block: ToolUseBlock, line: number, decided: SessionDecision): CallState {
    const { decision } = decided;
    const scope = scopeAt(this.machine.session, run.key);
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
}
