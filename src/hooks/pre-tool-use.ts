import { decideToolCall, type GateDecision } from "../engine/gate.js";
import { effectOf, findExactRepeat, inputDigest, type RanCall } from "../engine/redundancy.js";
import { defaultConfig } from "../engine/signals.js";
import { isNeutralTool } from "../engine/tools.js";
import { newScope, newSession, type GateSource, type ScopeState, type SessionState } from "../state/schema.js";
import { StateUnreadableError } from "../state/store.js";
import type { LogRecord } from "../log/record.js";
import type { HookContext } from "./context.js";
import { applyScan, effectiveGate, scanTranscript, vouchedIn, type PromptOutcome } from "./gating.js";
import { protectedTargetOf } from "./protected.js";
import { freshSession, recoverSwitches, switchRecords } from "./user-prompt-submit.js";
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

function decideInState(session: SessionState, ref: ScopeRef, input: PreToolUseInput, reportText: string | undefined, guarded?: string): Decided {
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
    ...(guarded ? { protectedTarget: guarded } : {}),
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
 * refuse or stay silent. Never "allow".
 */
export async function preToolUse(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  if (isNeutralTool(input.tool_name)) return {};
  const ref = scopeOf(input);
  let decided: Decided | undefined;
  let prompts: PromptOutcome[] = [];
  let seen: SessionState | undefined;
  const guarded = protectedTargetOf(input, ref, ctx.dataDir);
  try {
    const needed = await needsTranscript(input, ref, ctx);
    const waited = needed ? governingText(ref, input.tool_use_id, ctx) : undefined;
    decided = await ctx.store.transact(input.session_id, async (existing) => {
      const session = existing ?? freshSession(ctx, input.session_id);
      const scope = scopeState(session, ref);
      await ensureDefinition(scope, input, ctx);
      prompts = await applyScan(scope, scanTranscript(scope, ref, vouchedIn(session)), ctx.loadSkill, session);
      seen = session;
      delete scope.awaitingActivation;
      // Gated only now (a skill seen in this scan): the text is there, since the scan found lines written before the call.
      // Already waited (and found nothing): never wait a second time, holding the lock.
      const reportText = needed ? waited : effectiveGate(session, scope, ref) ? governingText(ref, input.tool_use_id, ctx) : undefined;
      return { state: session, result: decideInState(session, ref, input, reportText, guarded) };
    });
  } catch (error) {
    return stateTrouble(error, input, ref, ctx);
  }
  if (seen) switchRecords(ctx, "PreToolUse", input, ref, seen, prompts, started);
  ctx.appendLog(input.session_id, record(input, ref, decided, ctx, started));
  const output = toOutput(decided);
  return output ? { output } : {};
}

/**
 * The state could not be read or locked. A gated scope fails closed; we can
 * only know it is gated from the transcript and the files, so look there.
 */
async function stateTrouble(error: unknown, input: PreToolUseInput, ref: ScopeRef, ctx: HookContext): Promise<HookResult> {
  if (!(error instanceof StateUnreadableError)) throw error;
  let session = newSession(input.session_id);
  try {
    // Only locked (held too long), not unreadable: what it holds (/utility on, skills seen) still shows a gate.
    session = ctx.store.read(input.session_id) ?? session;
  } catch {
    // Unreadable: /utility on is still in the log (the user's own prompt, logged by UserPromptSubmit); skills show in the transcript.
    session = recoverSwitches(session, ctx.dataDir);
  }
  const scope = scopeState(session, ref);
  try {
    await ensureDefinition(scope, input, ctx);
    await applyScan(scope, scanTranscript({ ...scope, offset: 0 }, ref, vouchedIn(session)), ctx.loadSkill, session);
  } catch {
    // the transcript is unreadable too: nothing shows a gate
  }
  const gated = effectiveGate(session, scope, ref) !== undefined;
  if (!gated) return { stderr: `utility: ${error.message}; this scope is not gated, so the call goes on.` };
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: `utility gate: the gate's state cannot be read (${error.message}), so no call can be checked; the user can fix or delete that file, or end the task.`,
      },
    },
  };
}
