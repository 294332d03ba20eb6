// The step log's records (SPEC §8), built from the session machine's state:
// what a record says of its scope (task, step, gate, spend) is what the machine holds.
import type { Evaluation } from "../engine/report/check.js";
import type { Report } from "../engine/report/types.js";
import type { ScopedOutcome } from "../engine/session/reduce.js";
import { scopeAt } from "../engine/session/reduce.js";
import { callMessageOf } from "../engine/session/scope-usage.js";
import type { SessionState } from "../engine/session/state.js";
import { decisionScopeOf, frontmatterBudgetsOf, gateOf, sessionSpend } from "../engine/session/views.js";
import { copySpend } from "../engine/session/copy.js";
import { hasBudget, tightestBudgets } from "../engine/budget.js";
import { defaultConfig } from "../engine/signals.js";
import type { LogRecord, LoggedReport } from "../log/record.js";
import type { HookContext } from "./context.js";
import type { ScopeRef } from "./scope.js";

/** What a handler asks the entry script to print: JSON on stdout, a line on stderr. Exit code is always 0. */
export interface HookResult {
  output?: Record<string, unknown>;
  stderr?: string;
}

/** The report as logged: what the model claimed, and the override the engine found, if any. */
export function loggedReport(report: Report, evaluation?: Evaluation): LoggedReport {
  const override = evaluation?.termination.override;
  return {
    action: report.action,
    utility: report.utility,
    ...report.signals,
    rationale: report.rationale,
    ...(override ? { override } : {}),
  };
}

/** Which scope a record is about: the hook input that named it, its ref, and the session as the machine holds it. */
export interface RecordScope {
  input: { session_id: string; agent_type?: string | undefined };
  ref: ScopeRef;
  session: SessionState;
}

/** The fields every record of a scope carries, with the hook's latency since `started`. */
export function baseRecord(
  ctx: HookContext,
  event: LogRecord["event"],
  { input, ref, session }: RecordScope,
  started: number,
): Omit<LogRecord, "decision"> {
  const gate = gateOf(session, ref.key);
  const scope = scopeAt(session, ref.key);
  const config = gate?.config ?? defaultConfig();
  return {
    v: 1,
    time: ctx.clock().toISOString(),
    event,
    session: input.session_id,
    scope: decisionScopeOf(ref.key, gate),
    ...(ref.agentId ? { agentId: ref.agentId } : {}),
    ...(input.agent_type ? { agentType: input.agent_type } : {}),
    task: scope.task,
    step: scope.step,
    maxSteps: config.maxSteps,
    floor: config.floor,
    lambdas: [...config.lambdas] as LogRecord["lambdas"],
    gated: gate !== undefined,
    ...(gate ? { gatedBy: gate.file } : {}),
    ...(scope.spend ? { scopeSpend: structuredClone(scope.spend) as LogRecord["scopeSpend"] } : {}),
    ...budgetsField(session, ref),
    latencyMs: Math.round((ctx.now() - started) * 100) / 100,
  };
}

/** The budgets in force for the record's task, when any is set: the user's and the frontmatter's that bind the scope (the HTML report draws them). */
function budgetsField(session: SessionState, ref: ScopeRef): Pick<LogRecord, "budgets" | "sessionBudgets"> {
  const budgets = tightestBudgets(session.userBudgets, frontmatterBudgetsOf(session, ref.key));
  const beyond = session.userSessionBudgets;
  return {
    ...(hasBudget(budgets) ? { budgets } : {}),
    ...(beyond ? { sessionBudgets: { budgets: { ...beyond }, spent: copySpend(sessionSpend(session)) } } : {}),
  };
}

/** One Outcome record per step whose outcome this hook learned (SPEC §8), at the step it was; a hook learns only its own scope's. */
export function logOutcomes(ctx: HookContext, learnedBy: LogRecord["event"], where: RecordScope, outcomes: readonly ScopedOutcome[]): void {
  const started = ctx.now();
  for (const o of outcomes) {
    if (o.scope !== where.ref.key) continue;
    // The call's message, so `utility report` has the step's tokens even when its PreToolUse ran before the line was read.
    const message = callMessageOf(scopeAt(where.session, o.scope), o.toolUseId);
    ctx.appendLog(where.input.session_id, {
      ...baseRecord(ctx, "Outcome", where, started),
      step: o.step,
      tool: o.tool,
      toolUseId: o.toolUseId,
      decision: "observed",
      outcome: {
        result: o.outcome,
        resultBytes: o.resultBytes,
        ...(o.durationMs !== undefined ? { durationMs: o.durationMs } : {}),
        ...(o.tokens ? { tokens: { ...o.tokens } } : {}),
        learnedBy,
        ...(o.identical ? { identical: { ...o.identical } } : {}),
      },
      ...(message ? { spend: message } : {}),
    });
  }
}
