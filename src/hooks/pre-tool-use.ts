import { decideToolCall, type GateDecision } from "../engine/gate.js";
import { effectOf, findExactRepeat, inputDigest, type RanCall } from "../engine/redundancy.js";
import { defaultConfig } from "../engine/signals.js";
import { isNeutralTool } from "../engine/tools.js";
import { newScope, newSession, type GateSource, type ScopeState, type SessionState } from "../state/schema.js";
import { lastManualSwitch } from "../state/log.js";
import { sessionLogPath } from "../state/paths.js";
import { StateUnreadableError } from "../state/store.js";
import type { LogRecord } from "../log/record.js";
import type { HookContext } from "./context.js";
import { DeadlineError } from "./deadline.js";
import { recordError } from "./run.js";
import { applyScan, effectiveGate, scanTranscript } from "./gating.js";
import type { PreToolUseInput } from "./input.js";
import { baseRecord, loggedReport, type HookResult } from "./output.js";
import { scopeNameOf, scopeOf, scopeState, type ScopeRef } from "./scope.js";

/**
 * The model's own text before this call in its assistant message, from the
 * scope's own transcript only (SPEC §4). Waits for Claude Code to write the
 * call's line; undefined when it never appears.
 */
function governingText(ref: ScopeRef, toolUseId: string | undefined, ctx: HookContext): string | undefined {
  if (!toolUseId) return undefined;
  const found = ctx.waitForText(ref, toolUseId);
  return found.found ? found.text : undefined;
}

/**
 * Does this call need the transcript? Only when the scope is gated (the report
 * governs the call) or a skill may just have been activated (its lines may not
 * be written yet). Ungated calls never wait.
 */
async function needsTranscript(input: PreToolUseInput, ref: ScopeRef, ctx: HookContext): Promise<boolean> {
  const session = ctx.store.read(input.session_id);
  if (!session) return ref.kind === "main" || input.agent_type !== undefined ? await firstSight(input, ref, ctx) : false;
  const scope = scopeState(session, ref);
  if (scope.agentType === undefined && input.agent_type) await ensureDefinition(scope, input, ctx);
  return scope.awaitingActivation === true || effectiveGate(session, scope, ref) !== undefined;
}

/** No state yet: a subagent whose definition opts in is gated; the main scope may hold an activation from before the plugin saw it. */
async function firstSight(input: PreToolUseInput, ref: ScopeRef, ctx: HookContext): Promise<boolean> {
  if (ref.kind === "main") return true;
  const scope = newScope();
  await ensureDefinition(scope, input, ctx);
  return scope.definition?.gated === true;
}

/** A subagent's definition is looked up once, when its scope first shows up. */
async function ensureDefinition(scope: ScopeState, input: PreToolUseInput, ctx: HookContext): Promise<void> {
  if (!input.agent_type || scope.agentType !== undefined) return;
  scope.agentType = input.agent_type;
  const source = await ctx.loadAgent(input.agent_type, input.cwd);
  if (source) scope.definition = source;
}

interface Decided {
  decision: GateDecision;
  gate?: GateSource;
  scope: ScopeState;
  digest: string;
  repeat?: RanCall;
}

function decideInState(session: SessionState, ref: ScopeRef, input: PreToolUseInput, reportText: string | undefined): Decided {
  const scope = scopeState(session, ref);
  const gate = effectiveGate(session, scope, ref);
  const scopeName = scopeNameOf(ref, gate);
  const digest = inputDigest(input.tool_input);
  const effect = effectOf(input.tool_name, input.tool_input);
  // Calls let through whose results are not back yet count as in between (a parallel sibling may be writing).
  const repeat = findExactRepeat(scope.history, { tool: input.tool_name, digest, effect }, Object.values(scope.pending));
  const decision = decideToolCall({
    scope: scopeName,
    gated: gate !== undefined,
    ...(gate?.problem ? { optInProblem: gate.problem } : {}),
    ...(reportText !== undefined ? { reportText } : {}),
    tool: input.tool_name,
    step: scope.step,
    config: gate?.config ?? defaultConfig(),
    extraTools: gate?.extraTools ?? {},
    ...(repeat ? { repeat } : {}),
  });
  if (decision.decision === "refused") {
    scope.refusals += 1;
  } else {
    scope.step += 1;
    if (decision.decision === "passed") scope.lastAction = decision.evaluation.report.action;
    if (input.tool_use_id) scope.pending[input.tool_use_id] = { tool: input.tool_name, digest, effect, at: scope.step, toolUseId: input.tool_use_id };
  }
  return { decision, scope, digest, ...(gate ? { gate } : {}), ...(repeat ? { repeat: repeat.previous } : {}) };
}

function toOutput(decided: Decided): HookResult["output"] {
  const { decision } = decided;
  if (decision.decision === "refused") {
    return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `utility gate: ${decision.reason}` } };
  }
  if (decision.decision === "observed" && decision.hint) {
    return { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: decision.hint } };
  }
  return undefined;
}

function record(input: PreToolUseInput, ref: ScopeRef, decided: Decided, ctx: HookContext, started: number): LogRecord {
  const { decision, gate, scope } = decided;
  const evaluation = decision.decision === "passed" || decision.decision === "refused" ? decision.evaluation : undefined;
  const report = evaluation?.report ?? (decision.decision === "refused" ? decision.report : undefined);
  return {
    ...baseRecord(ctx, "PreToolUse", input, ref, scope, gate, started),
    tool: input.tool_name,
    ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
    inputDigest: decided.digest,
    decision: decision.decision === "neutral" ? "observed" : decision.decision,
    ...(decision.decision === "refused" ? { rule: decision.rule, reason: decision.reason } : {}),
    ...(report ? { report: loggedReport(report, evaluation) } : {}),
    ...(report
      ? { selection: { strategy: "reported" as const, candidates: report.candidates?.length ?? 1, chosen: report.action } }
      : {}),
    ...(decided.repeat ? { repeat: { ofStep: decided.repeat.at, ...(decided.repeat.toolUseId ? { toolUseId: decided.repeat.toolUseId } : {}) } } : {}),
  };
}

/**
 * PreToolUse: find the scope and whether it is gated, find the report that
 * governs this call, decide (pure), count the step, log one record, and
 * refuse or stay silent. Never "allow". Whatever goes wrong inside, a gated
 * scope still gets a decision: a refusal with the reason (SPEC §6).
 */
export async function preToolUse(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  try {
    return await decide(input, ctx);
  } catch (error) {
    return failClosed(error, input, ctx);
  }
}

async function decide(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  if (isNeutralTool(input.tool_name)) return {};
  const ref = scopeOf(input);
  let decided: Decided | undefined;
  try {
    const needed = await needsTranscript(input, ref, ctx);
    const waited = needed ? governingText(ref, input.tool_use_id, ctx) : undefined;
    decided = await ctx.store.transact(input.session_id, async (existing) => {
      const session = existing ?? newSession(input.session_id);
      const scope = scopeState(session, ref);
      await ensureDefinition(scope, input, ctx);
      await applyScan(scope, scanTranscript(scope, ref), ctx.loadSkill);
      delete scope.awaitingActivation;
      // Gated only now (a skill seen in this scan): the text is there, since the scan found lines written before the call.
      // Already waited (and found nothing): never wait a second time, holding the lock.
      const reportText = needed ? waited : effectiveGate(session, scope, ref) ? governingText(ref, input.tool_use_id, ctx) : undefined;
      return { state: session, result: decideInState(session, ref, input, reportText) };
    });
  } catch (error) {
    if (error instanceof StateUnreadableError) return failClosed(error, input, ctx, ref);
    throw error;
  }
  ctx.appendLog(input.session_id, record(input, ref, decided, ctx, started));
  const output = toOutput(decided);
  return output ? { output } : {};
}

/**
 * Whether anything the plugin keeps or Claude Code wrote says this scope is
 * gated, read with nothing assumed to work: the state file (or, when it
 * cannot be read, `/utility on` in the step log), the subagent's definition,
 * and skills activated in the transcript since the task began. Any one
 * saying so is enough; a source that fails says nothing.
 */
async function gatedByEvidence(input: PreToolUseInput, ctx: HookContext, known?: ScopeRef): Promise<boolean> {
  let ref = known;
  try {
    ref ??= scopeOf(input);
  } catch {
    // an id that cannot be a path: only the subagent's definition can still say
  }
  let session = newSession(input.session_id);
  try {
    // Only locked (held too long), not unreadable: what it holds (/utility on, skills seen) still shows a gate.
    session = ctx.store.read(input.session_id) ?? session;
  } catch {
    // Unreadable: /utility on is still in the log (the user's own prompt, logged by UserPromptSubmit).
    try {
      session.manualGate = lastManualSwitch(sessionLogPath(ctx.dataDir, input.session_id)) === "on";
    } catch {
      // no log either
    }
  }
  const scope = ref ? scopeState(session, ref) : newScope(1);
  try {
    await ensureDefinition(scope, input, ctx);
  } catch {
    // the definition cannot be read: it shows nothing
  }
  if (scope.definition?.gated) return true;
  if (!ref) return false;
  try {
    await applyScan(scope, scanTranscript({ ...scope, offset: 0 }, ref), ctx.loadSkill);
  } catch {
    // the transcript is unreadable too: it shows nothing
  }
  try {
    return effectiveGate(session, scope, ref) !== undefined;
  } catch {
    return false;
  }
}

function describeTrouble(error: unknown, ctx: HookContext): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  if (error instanceof DeadlineError) return message;
  // A lock wait cut short by the deadline says so: "held for more than 0 ms" alone would not explain it.
  const late = ctx.deadline && ctx.deadline.remainingMs() <= 0 ? `; the hook reached its ${ctx.deadline.limitMs} ms deadline` : "";
  return error instanceof StateUnreadableError ? `${message}${late}` : `the hook failed (${message})${late}`;
}

/**
 * Something went wrong before a decision. A gated scope fails closed: the
 * call is refused with the reason, since an undecided PreToolUse lets the
 * call run. An ungated one is never blocked by the plugin's own trouble: one
 * line on stderr, no decision.
 */
async function failClosed(error: unknown, input: PreToolUseInput, ctx: HookContext, ref?: ScopeRef): Promise<HookResult> {
  const trouble = describeTrouble(error, ctx);
  const gated = await gatedByEvidence(input, ctx, ref).catch(() => false);
  if (!gated) return { stderr: `utility: ${trouble}; this scope is not gated, so the call goes on.` };
  const stateTrouble = error instanceof StateUnreadableError;
  if (!stateTrouble) recordError(ctx.dataDir, "PreToolUse", `${trouble}; refused (gated scope)`);
  const reason = stateTrouble
    ? `the gate's state cannot be read (${trouble}), so no call can be checked; the user can fix or delete that file, or end the task.`
    : `${trouble}, so this call cannot be checked and is refused; try the call again, or end the task.`;
  return { output: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `utility gate: ${reason}` } } };
}
