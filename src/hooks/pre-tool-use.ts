import { formatContextLine, spendAgainstBudgets, tierOf } from "../engine/context-line.js";
import { inputDigest, type RanCall } from "../engine/redundancy.js";
import { decideCall } from "../engine/scope-state/decide.js";
import { callMessageOf, type Outcome } from "../engine/scope-state/reducer.js";
import { budgetsInForce, type GateBudget, type GateDecision } from "../engine/gate.js";
import type { Spend } from "../engine/spend.js";
import type { LogRecord, RecordSpend } from "../log/record.js";
import { parseUserConfig } from "../optin/user-config.js";
import { gateBudgetFrom, userBudgetsSet } from "./budgets.js";
import { isNeutralTool } from "../engine/tools.js";
import { newScope, newSession, type GateSource, type ScopeState, type SessionState } from "../state/schema.js";
import { StateUnreadableError } from "../state/store.js";
import type { HookContext } from "./context.js";
import { DeadlineError } from "./deadline.js";
import { recordError } from "./run.js";
import { activationSeen, applyScan, effectiveGate, scanTranscript, stillAwaiting, vouchedIn, type PromptOutcome } from "./gating.js";
import { protectedTargetOf } from "./protected.js";
import { skillActsAs, skillWillLoad } from "./skill-call.js";
import type { ActsAs } from "../engine/tools.js";
import { freshSession, recoverSwitches, switchRecords } from "./user-prompt-submit.js";
import type { PreToolUseInput } from "./input.js";
import { baseRecord, loggedReport, logOutcomes, type HookResult } from "./output.js";
import { reduceScope, rootSpendOf, scopeNameOf, scopeOf, scopeState, type ScopeRef } from "./scope.js";

interface Governing {
  /** The model's own text before the call; undefined when the call's line never appeared. */
  text?: string;
  /** The model that wrote the message, as the transcript names it. */
  model?: string;
}

/**
 * The model's own text before this call in its assistant message, from the
 * scope's own transcript only (SPEC §4), and the model that wrote it. Waits
 * for Claude Code to write the call's line.
 */
function governingText(ref: ScopeRef, toolUseId: string | undefined, ctx: HookContext): Governing {
  if (!toolUseId) return {};
  const found = ctx.waitForText(ref, toolUseId);
  return found.found ? { text: found.text, ...(found.model ? { model: found.model } : {}) } : {};
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
  if (effectiveGate(session, scope, ref) !== undefined || mayBeUnprovenRepeat(scope, input)) return true;
  // Read on the state as it is, outside the lock: the scan under the lock reads these lines again.
  return stillAwaiting(scope, () => scanTranscript(scope, ref, vouchedIn(session)));
}

/**
 * An ungated call that could repeat an earlier one while calls are still
 * pending: their results may be in lines Claude Code has not flushed yet
 * (docs/decisions/0001). Its own line comes after them, so waiting for it
 * lets the hint be as complete as under the gate. Other calls never wait.
 */
function mayBeUnprovenRepeat(scope: ScopeState, input: PreToolUseInput): boolean {
  const pending = Object.values(scope.pending);
  if (pending.length === 0) return false;
  const digest = inputDigest(input.tool_input);
  const same = (c: { tool: string; digest: string }) => c.tool === input.tool_name && c.digest === digest;
  return pending.some(same) || scope.history.some(same);
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
  /** For a passed call under the gate: the line that tells the model its step, tier and next StepCost. */
  context?: string;
  gate?: GateSource;
  scope: ScopeState;
  digest: string;
  repeat?: RanCall;
  /** Outcomes of earlier calls learned from the transcript's tail on the way. */
  outcomes: Outcome[];
  /** What the call's assistant message spent, once its line was read. */
  spend?: RecordSpend;
}

/** The budget input, or undefined when none applies (no user budget, none in the gating file): then nothing more is computed. */
function budgetFor(
  session: SessionState,
  scope: ScopeState,
  gate: GateSource | undefined,
  env: HookContext["env"],
  model: string | undefined,
): GateBudget | undefined {
  if (!gate?.budgets && !userBudgetsSet(env)) return undefined;
  const spend = rootSpendOf(session, scope);
  return gateBudgetFrom({ spend, env, gate, launched: spend.agentsLaunched, ...(model !== undefined ? { model } : {}) });
}

/** One call to decide under the state lock, with what was found on the way there. */
interface CallInState {
  input: PreToolUseInput;
  governing: Governing;
  startedAt: number;
  outcomes: Outcome[];
  env: HookContext["env"];
  guarded: string | undefined;
  /** A Skill call in a gated scope judged by what its skill does (./skill-call.ts). */
  actsAs?: ActsAs;
}

function decideInState(
  session: SessionState,
  ref: ScopeRef,
  { input, governing, startedAt, outcomes, env, guarded, actsAs }: CallInState,
): Decided {
  const reportText = governing.text;
  const scope = scopeState(session, ref);
  const gate = effectiveGate(session, scope, ref);
  rememberUserBudgets(session, env);
  // Decided and counted under the state lock: parallel Agent calls of one message each see the launches admitted before them.
  const budget = budgetFor(session, scope, gate, env, governing.model);
  const decided = decideCall(scope, scopeNameOf(ref, gate), gate, {
    tool: input.tool_name,
    input: input.tool_input,
    ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
    ...(reportText !== undefined ? { reportText } : {}),
    startedAt,
    ...(guarded ? { protectedTarget: guarded } : {}),
    ...(budget ? { budget } : {}),
    actsAs,
  });
  reduceScope(scope, [decided.event]);
  skillWillLoad(scope, input.tool_name, decided.decision);
  const context =
    decided.decision.decision === "passed" ? contextLine(scope, gate, governing.model, budget, rootSpendOf(session, scope)) : undefined;
  const spend = recordSpendOf(scope, input.tool_use_id, governing.model);
  return {
    decision: decided.decision,
    scope,
    digest: decided.digest,
    outcomes,
    ...(context ? { context } : {}),
    ...(gate ? { gate } : {}),
    ...(decided.repeat ? { repeat: decided.repeat } : {}),
    ...(spend ? { spend } : {}),
  };
}

/** The user's budgets as this hook's environment carries them, kept in the state for `/utility status` (its command has no such environment). */
function rememberUserBudgets(session: SessionState, env: HookContext["env"]): void {
  const user = parseUserConfig(env);
  if (Object.keys(user.budgets).length > 0) session.userBudgets = user.budgets;
  else delete session.userBudgets;
}

/** The usage of the assistant message that made this call, when its line has been read (SPEC §8). */
function recordSpendOf(scope: ScopeState, toolUseId: string | undefined, model: string | undefined): RecordSpend | undefined {
  const found = toolUseId ? callMessageOf(scope, toolUseId) : undefined;
  if (!found) return undefined;
  const named = found.model ?? model;
  return { messageId: found.messageId, ...(named !== undefined ? { model: named } : {}), tokens: found.tokens };
}

/** Only when the tier is known: the line's point is the StepCost, which needs it. Spend shows against the budgets in force. */
function contextLine(
  scope: ScopeState,
  gate: GateSource | undefined,
  model: string | undefined,
  budget: GateBudget | undefined,
  spend: Spend,
): string | undefined {
  const tier = tierOf(model);
  const maxSteps = gate?.config.maxSteps;
  if (!tier || maxSteps === undefined) return undefined;
  if (!budget) return formatContextLine({ step: scope.step, maxSteps, tier });
  const budgets = budgetsInForce({ gated: gate !== undefined, budget });
  return formatContextLine({ step: scope.step, maxSteps, tier, ...spendAgainstBudgets(spend, budgets, budget.prices) });
}

function toOutput(decided: Decided): HookResult["output"] {
  const { decision } = decided;
  if (decision.decision === "refused") {
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: `utility gate: ${decision.reason}`,
      },
    };
  }
  if (decided.context) {
    return { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: decided.context } };
  }
  if (decision.decision === "observed" && decision.hint) {
    return { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: decision.hint } };
  }
  return undefined;
}

function record(input: PreToolUseInput, ref: ScopeRef, decided: Decided, ctx: HookContext, started: number): LogRecord {
  const { decision, gate, scope } = decided;
  return {
    ...baseRecord(ctx, "PreToolUse", { input, ref, scope, gate }, started),
    tool: input.tool_name,
    ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
    inputDigest: decided.digest,
    decision: decision.decision === "neutral" ? "observed" : decision.decision,
    ...(decision.decision === "refused" ? { rule: decision.rule, reason: decision.reason } : {}),
    ...reportFields(decision),
    ...(decided.repeat ? { repeat: repeatField(decided.repeat) } : {}),
    ...(decided.spend ? { spend: decided.spend } : {}),
  };
}

/** The report the decision read, as logged, and the selection it claims; nothing when there was none. */
function reportFields(decision: Decided["decision"]): Pick<LogRecord, "report" | "selection"> {
  const evaluation = decision.decision === "passed" || decision.decision === "refused" ? decision.evaluation : undefined;
  const report = evaluation?.report ?? (decision.decision === "refused" ? decision.report : undefined);
  if (!report) return {};
  return {
    report: loggedReport(report, evaluation),
    selection: { strategy: "reported" as const, candidates: report.candidates?.length ?? 1, chosen: report.action },
  };
}

function repeatField(repeat: NonNullable<Decided["repeat"]>): NonNullable<LogRecord["repeat"]> {
  return { ofStep: repeat.at, ...(repeat.toolUseId ? { toolUseId: repeat.toolUseId } : {}) };
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

/**
 * The text that governs the call and, for a Skill call in a gated scope, what
 * it acts as: its skill is judged first, and its text read only if it acts as
 * more than neutral. Any other call: gated only now (a skill seen in this
 * scan), the text is there, since the scan found lines written before the
 * call; already waited (and found nothing), never wait a second time, holding
 * the lock.
 */
async function governingFor(
  input: PreToolUseInput,
  ref: ScopeRef,
  ctx: HookContext,
  known: { needed: boolean; waited: Governing; gated: boolean },
): Promise<{ governing: Governing; actsAs?: ActsAs }> {
  if (input.tool_name === "Skill") {
    const actsAs = known.gated ? await skillActsAs(input, ctx) : undefined;
    return actsAs ? { governing: governingText(ref, input.tool_use_id, ctx), actsAs } : { governing: {} };
  }
  return { governing: known.needed ? known.waited : known.gated ? governingText(ref, input.tool_use_id, ctx) : {} };
}

async function decide(input: PreToolUseInput, ctx: HookContext): Promise<HookResult> {
  const started = ctx.now();
  if (isNeutralTool(input.tool_name) && input.tool_name !== "Skill") return {};
  const ref = scopeOf(input);
  let decided: Decided | undefined;
  let prompts: PromptOutcome[] = [];
  let seen: SessionState | undefined;
  const guarded = protectedTargetOf(input, ref, ctx.dataDir);
  try {
    const needed = await needsTranscript(input, ref, ctx);
    // A Skill call's text is read only once it is known to act as more than neutral (./skill-call.ts).
    const waited = needed && input.tool_name !== "Skill" ? governingText(ref, input.tool_use_id, ctx) : {};
    decided = await ctx.store.transact(input.session_id, async (existing) => {
      const session = existing ?? freshSession(ctx, input.session_id);
      const scope = scopeState(session, ref);
      await ensureDefinition(scope, input, ctx);
      const applied = await applyScan(scope, scanTranscript(scope, ref, vouchedIn(session)), ctx.loadSkill, session);
      prompts = applied.prompts;
      seen = session;
      activationSeen(scope);
      const gated = effectiveGate(session, scope, ref) !== undefined;
      const { governing, actsAs } = await governingFor(input, ref, ctx, { needed, waited, gated });
      return {
        state: session,
        result: decideInState(session, ref, {
          input,
          governing,
          startedAt: ctx.clock().getTime(),
          outcomes: applied.outcomes,
          env: ctx.env,
          guarded,
          actsAs,
        }),
      };
    });
  } catch (error) {
    if (error instanceof StateUnreadableError) return failClosed(error, input, ctx, ref, started);
    throw error;
  }
  if (seen) switchRecords(ctx, "PreToolUse", { input, ref, session: seen }, prompts, started);
  logOutcomes(ctx, "PreToolUse", { input, ref, scope: decided.scope, gate: decided.gate }, decided.outcomes);
  // A neutral Skill call is no step and leaves no record, as before the gate judged skills.
  if (decided.decision.decision !== "neutral") ctx.appendLog(input.session_id, record(input, ref, decided, ctx, started));
  const output = toOutput(decided);
  return output ? { output } : {};
}

interface GateEvidence {
  gate: GateSource;
  scope: ScopeState;
  ref?: ScopeRef;
}

/**
 * What gates this scope, if anything the plugin keeps or Claude Code wrote
 * says so, read with nothing assumed to work: the state file (or, when it
 * cannot be read, `/utility on` in the step log), the subagent's definition,
 * and skills activated in the transcript since the task began. Any one
 * saying so is enough; a source that fails says nothing.
 */
async function gateEvidence(input: PreToolUseInput, ctx: HookContext, known?: ScopeRef): Promise<GateEvidence | undefined> {
  const ref = known ?? refOrNone(input);
  const session = sessionForEvidence(input.session_id, ctx);
  const scope = ref ? scopeState(session, ref) : newScope(1);
  try {
    await ensureDefinition(scope, input, ctx);
  } catch {
    // the definition cannot be read: it shows nothing
  }
  if (!ref) return scope.definition?.gated ? { gate: scope.definition, scope } : undefined;
  try {
    await applyScan(scope, scanTranscript({ ...scope, offset: 0 }, ref, vouchedIn(session)), ctx.loadSkill, session);
  } catch {
    // the transcript is unreadable too: it shows nothing
  }
  return gatedEvidence(session, scope, ref);
}

function gatedEvidence(session: SessionState, scope: ScopeState, ref: ScopeRef): GateEvidence | undefined {
  try {
    const gate = effectiveGate(session, scope, ref) ?? (scope.definition?.gated ? scope.definition : undefined);
    return gate ? { gate, scope, ref } : undefined;
  } catch {
    return undefined;
  }
}

function refOrNone(input: PreToolUseInput): ScopeRef | undefined {
  try {
    return scopeOf(input);
  } catch {
    // an id that cannot be a path: only the subagent's definition can still say
    return undefined;
  }
}

/** The session as far as it can be read: the state file, else the switches in the log, else a fresh one. */
function sessionForEvidence(sessionId: string, ctx: HookContext): SessionState {
  const session = newSession(sessionId);
  try {
    // Only locked (held too long), not unreadable: what it holds (/utility on, skills seen) still shows a gate.
    return ctx.store.read(sessionId) ?? session;
  } catch {
    // Unreadable: /utility on is still in the log (the user's own prompt); skills show in the transcript.
    try {
      return recoverSwitches(session, ctx.dataDir);
    } catch {
      return session; // no log either
    }
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
 * line on stderr, no decision. State trouble is logged under its own rule,
 * so `utility report` counts it; any other failure goes to the error log.
 */
async function failClosed(
  error: unknown,
  input: PreToolUseInput,
  ctx: HookContext,
  ref?: ScopeRef,
  started = ctx.now(),
): Promise<HookResult> {
  const trouble = describeTrouble(error, ctx);
  const evidence = await gateEvidence(input, ctx, ref).catch(() => undefined);
  if (!evidence) return { stderr: `utility: ${trouble}; this scope is not gated, so the call goes on.` };
  const stateTrouble = error instanceof StateUnreadableError;
  const reason = stateTrouble
    ? `the gate's state cannot be read (${trouble}), so no call can be checked; the user can fix or delete that file, or end the task.`
    : `${trouble}, so this call cannot be checked and is refused; try the call again, or end the task.`;
  if (!stateTrouble) recordError(ctx.dataDir, "PreToolUse", `${trouble}; refused (gated scope)`);
  else if (evidence.ref) logStateTrouble(input, evidence as Required<GateEvidence>, ctx, started, reason);
  return {
    output: {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `utility gate: ${reason}` },
    },
  };
}

function logStateTrouble(
  input: PreToolUseInput,
  evidence: Required<GateEvidence>,
  ctx: HookContext,
  started: number,
  reason: string,
): void {
  try {
    ctx.appendLog(input.session_id, {
      ...baseRecord(ctx, "PreToolUse", { input, ref: evidence.ref, scope: evidence.scope, gate: evidence.gate }, started),
      tool: input.tool_name,
      ...(input.tool_use_id ? { toolUseId: input.tool_use_id } : {}),
      inputDigest: inputDigest(input.tool_input),
      decision: "refused",
      rule: "state_unreadable",
      reason,
    });
  } catch {
    // the refusal stands even when it cannot be logged
  }
}
