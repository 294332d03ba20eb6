import { zeroSpend, type TokenCounts } from "../spend.js";
import { hasSessionBudget } from "../session-budget.js";
import { classifyPrompt, type PromptKind } from "./prompt-kind.js";
import { agentIdOf, type ScopeKey, type SessionEvent } from "./events.js";
import type { ScopeEvent } from "./scope-events.js";
import { applyEvents, type Outcome } from "./scope-reducer.js";
import { commandTyped, offEvidence, vouchOf, type OffRefusal } from "./switch-off.js";
import { endSkillFork, joinFork, joinSkillForks, recordFork, recordSkillFork } from "./fork.js";
import { forkOrigin, sessionForked } from "./fork-origin.js";
import { copySession, copySpend } from "./copy.js";
import { awaitPrompt, mainAgent } from "./main-scope.js";
import {
  newScope,
  VOUCHED_PROMPTS_LIMIT,
  type GateSource,
  type ScopeDraft,
  type ScopeState,
  type SessionDraft,
  type SessionState,
  type Switch,
  type VouchedPrompt,
} from "./state.js";

/**
 * The session machine (SPEC §15): `reduce(session, event)` owns every field
 * of a session's state. The hooks and replay feed it the same events; every
 * surface reads what it folds. Pure: the given state is never changed (a
 * changed copy is returned); no I/O, clock or randomness.
 */

/** What a prompt line turned out to be, and the switch it made, if any (the hooks log it). */
export interface PromptOutcome {
  key: string;
  kind: PromptKind;
  switched?: Switch;
}

/** A step's outcome, with the scope it belongs to. */
export interface ScopedOutcome extends Outcome {
  scope: ScopeKey;
}

export interface Reduction {
  session: SessionState;
  /** Step outcomes these events made known, in order (SPEC §8). */
  outcomes: ScopedOutcome[];
  /** Prompt lines applied, in order. */
  prompts: PromptOutcome[];
  /** A switch applied at once: `/utility on` by its UserPromptSubmit or UserPromptExpansion, `off` once Claude Code's line shows it. */
  switchedNow?: Switch;
  /** A `/utility off` not taken, and why (./switch-off.ts). */
  offRefused?: OffRefusal;
}

export function reduce(session: SessionState, event: SessionEvent): Reduction {
  return reduceAll(session, [event]);
}

export interface ReduceOptions {
  /**
   * The caller gives `session` up: it will read only the returned state from
   * now on (replay, which folds one recorded session forward and keeps no
   * earlier state). Then nothing is copied and the state changes in place;
   * the result is the same. Without it, the given state is never changed.
   */
  transient?: boolean;
}

export function reduceAll(session: SessionState, events: readonly SessionEvent[], options: ReduceOptions = {}): Reduction {
  const transient = options.transient === true;
  const draft = transient ? (session as SessionDraft) : copySession(session);
  const out: Out = { outcomes: [], prompts: [], transient };
  for (const event of events) apply(draft, event as Extract<SessionEvent, { kind: SessionEvent["kind"] }>, out);
  const { transient: _transient, ...reduction } = out;
  return { session: draft as SessionState, ...reduction };
}

/** The scope a key names; a subagent not seen yet starts as its first event would start it. */
export function scopeAt(session: SessionState, key: ScopeKey): ScopeState {
  const agentId = agentIdOf(key);
  if (agentId === undefined) return session.main;
  return Object.hasOwn(session.agents, agentId) ? session.agents[agentId]! : startedScope(session);
}

type Out = Omit<Reduction, "session"> & { transient: boolean };

type Handler<K extends SessionEvent["kind"]> = (session: SessionDraft, event: Extract<SessionEvent, { kind: K }>, out: Out) => void;

/** What each event does to the session: one line each, or a named function below. */
const HANDLERS: { [K in SessionEvent["kind"]]: Handler<K> } = {
  prompt_vouched: (session, event, out) => vouched(session, event, out),
  prompt_line: (session, event, out) => promptLine(session, event, out),
  command_typed: (session, event, out) => commandTyped(session, event, out),
  off_evidence: (session, event, out) => offEvidence(session, event.shown, out),
  fork_launched: (session, event) => recordFork(session, scopeAt(session as SessionState, event.scope), event.scope, event.toolUseId),
  fork_joined: (session, event) => editScope(session, `agent:${event.agentId}`, (scope) => joinFork(session, scope, event.toolUseId)),
  session_forked: (session) => sessionForked(session),
  fork_origin: (session, event, out) => forkOrigin(session, event.from, event.gated, out),
  switch_restored: (session) => {
    session.manualGate = true;
  },
  subagent_started: (session, event) => {
    if (!Object.hasOwn(session.agents, event.agentId)) putScope(session, `agent:${event.agentId}`, startedScope(session as SessionState));
  },
  definition_loaded: (session, event) =>
    editScope(session, `agent:${event.agentId}`, (scope) => {
      if (scope.agentType !== undefined) return;
      scope.agentType = event.agentType;
      if (event.definition) scope.definition = event.definition;
      joinSkillForks(session, scope);
    }),
  main_agent: (session, event) => editScope(session, "main", (main) => mainAgent(main, event)),
  skill_fork_launched: (session, event) => recordSkillFork(session, event.toolUseId, event.source),
  skill_loaded: (session, event) => editScope(session, event.scope, (scope) => loadSource(scope, event.source)),
  lines_read: (session, event) =>
    editScope(session, event.scope, (scope) => {
      scope.offset = event.offset;
      if (event.transcriptId !== undefined) scope.transcriptId = event.transcriptId;
      else delete scope.transcriptId;
    }),
  activation_awaited: (session, event) =>
    editScope(session, event.scope, (scope) => {
      scope.awaitingActivation = true;
      delete scope.awaitingPrompt;
      const loads = { ...(event.source ? { source: event.source } : {}), ...(event.hooks ? { hooks: event.hooks } : {}) };
      if (event.toolUseId !== undefined && Object.keys(loads).length > 0)
        scope.skillCalls = { ...scope.skillCalls, [event.toolUseId]: loads };
    }),
  activation_seen: (session, event) =>
    editScope(session, event.scope, (scope) => {
      delete scope.awaitingActivation;
      delete scope.awaitingPrompt;
    }),
  call_line_seen: (session, event, out) => scopeEvents(session, event.scope, [{ kind: "confirmed", messageId: event.messageId }], out),
  stop_blocked: (session, event) =>
    editScope(session, event.scope, (scope) => {
      scope.stopBlocked = true;
    }),
  settings_warned: (session, event) => {
    session.settingsWarned = event.problem;
  },
  user_budgets: (session, event) => {
    if (event.budgets && Object.keys(event.budgets).length > 0) session.userBudgets = event.budgets;
    else delete session.userBudgets;
    if (hasSessionBudget(event.session)) session.userSessionBudgets = event.session;
    else delete session.userSessionBudgets;
  },
  scope: (session, event, out) => {
    skillCallEnded(session, event.scope, event.event);
    scopeEvents(session, event.scope, [event.event], out);
  },
};

/** A skill seen loading in the scope's task (once per file). */
function loadSource(scope: ScopeDraft, source: GateSource): void {
  if (!scope.sources.some((s) => s.file === source.file)) scope.sources = [...scope.sources, source];
}

/**
 * An admitted Skill call's result: one that is no error means Claude Code
 * loaded the skill, so it is the task's from here on. A refusal, an error or
 * a denial loads nothing. (A result line is one a shell could write; a
 * forged one can only gate the scope, never open it.)
 */
function skillCallEnded(session: SessionDraft, key: ScopeKey, event: ScopeEvent): void {
  if (event.kind !== "result" && event.kind !== "denied") return;
  endSkillFork(session, event.toolUseId);
  const loads = scopeAt(session as SessionState, key).skillCalls?.[event.toolUseId];
  if (!loads) return;
  const ran = event.kind === "result" && !event.failed;
  editScope(session, key, (scope) => {
    const { [event.toolUseId]: _ended, ...rest } = scope.skillCalls ?? {};
    if (Object.keys(rest).length > 0) scope.skillCalls = rest;
    else delete scope.skillCalls;
    if (ran && loads.source) loadSource(scope, loads.source);
  });
  const hooks = loads.hooks;
  if (ran && hooks !== undefined && !(session.hookFiles ?? []).includes(hooks)) session.hookFiles = [...(session.hookFiles ?? []), hooks];
}

function apply<K extends SessionEvent["kind"]>(session: SessionDraft, event: Extract<SessionEvent, { kind: K }>, out: Out): void {
  (HANDLERS[event.kind as K] as Handler<K>)(session, event, out);
}

/** Runs `change` on a copy of the scope and puts the copy in place. */
function editScope(session: SessionDraft, key: ScopeKey, change: (scope: ScopeDraft) => void): void {
  const scope = { ...scopeAt(session as SessionState, key) } as ScopeDraft;
  change(scope);
  putScope(session, key, scope);
}

function putScope(session: SessionDraft, key: ScopeKey, scope: ScopeState): void {
  const agentId = agentIdOf(key);
  if (agentId === undefined) session.main = scope as ScopeDraft;
  else session.agents[agentId] = scope as ScopeDraft;
}

/**
 * A scope's own events, through the scope reducer. What they add to the
 * scope's spend is added to the session's too (a typed prompt starts the
 * scope's task spend afresh; the session's keeps everything).
 */
function scopeEvents(session: SessionDraft, key: ScopeKey, events: readonly ScopeEvent[], out: Out): void {
  const before = scopeAt(session as SessionState, key);
  // Changed in place, the scope's spend before is a copy (what the events add to it is added to the session's).
  const spentBefore = out.transient && before.spend ? copySpend(before.spend) : before.spend;
  const reduced = applyEvents(before, events, out.transient);
  putScope(session, key, reduced.state);
  for (const outcome of reduced.outcomes) out.outcomes.push({ ...outcome, scope: key });
  if (events.some((e) => e.kind === "prompt")) return;
  addDelta(session, spentBefore, reduced.state.spend);
}

function addDelta(session: SessionDraft, before: ScopeState["spend"], after: ScopeState["spend"]): void {
  if (!after) return;
  const total = (session.spend ??= zeroSpend());
  const was = before ?? zeroSpend();
  addTokens(total.tokens, after.tokens, was.tokens);
  for (const [model, tokens] of Object.entries(after.byModel)) {
    const old = Object.hasOwn(was.byModel, model) ? was.byModel[model]! : undefined;
    addTokens((total.byModel[model] ??= { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 }), tokens, old);
  }
  total.toolCalls = Math.max(0, total.toolCalls + after.toolCalls - was.toolCalls);
  total.agentsLaunched = Math.max(0, total.agentsLaunched + after.agentsLaunched - was.agentsLaunched);
}

function addTokens(into: TokenCounts, after: Readonly<TokenCounts>, before: Readonly<TokenCounts> | undefined): void {
  into.input += after.input - (before?.input ?? 0);
  into.output += after.output - (before?.output ?? 0);
  into.cacheCreation += after.cacheCreation - (before?.cacheCreation ?? 0);
  into.cacheRead += after.cacheRead - (before?.cacheRead ?? 0);
}

/** A new subagent scope: it counts toward the main scope's current task, after the subagents that task started before it. */
function startedScope(session: SessionState): ScopeState {
  const rootTask = session.main.task;
  const before = Object.values(session.agents).filter((agent) => agent.rootTask === rootTask).length;
  return { ...applyEvents(newScope(1), [{ kind: "subagent_started", rootTask }]).state, ordinal: before + 1 };
}

/**
 * UserPromptSubmit vouched for a prompt. `/utility on` only tightens, so it
 * takes effect now, whatever the prompt turns out to be; a wakeup that says
 * it gates the model that scheduled it. Everything else waits for the line.
 */
function vouched(session: SessionDraft, event: Extract<SessionEvent, { kind: "prompt_vouched" }>, out: Out): void {
  const seq = (session.promptSeq ?? 0) + 1;
  session.promptSeq = seq;
  if (event.at !== undefined) session.promptAt = Math.max(event.at, session.promptAt ?? 0);
  const prompts = (session.prompts ??= {});
  const before = Object.hasOwn(prompts, event.key) ? prompts[event.key] : undefined;
  delete prompts[event.key];
  prompts[event.key] = vouchOf(before, event, seq);
  const keys = Object.keys(prompts);
  for (const old of keys.slice(0, Math.max(0, keys.length - VOUCHED_PROMPTS_LIMIT))) delete prompts[old];
  if (event.switch === "on") {
    session.manualGate = true;
    session.switchSeq = seq;
    delete session.pendingOff;
    out.switchedNow = "on";
  }
  editScope(session, "main", (main) => awaitPrompt(main, event.key, event.slash));
}

/**
 * A user line of the main transcript. Only a line that looks typed and whose
 * prompt key a UserPromptSubmit vouched for is a typed prompt (SPEC §2): a
 * shell can append a user line, but cannot make Claude Code run the hook.
 * One line per vouch: a second line with the same key finds none.
 */
function promptLine(session: SessionDraft, event: Extract<SessionEvent, { kind: "prompt_line" }>, out: Out): void {
  const prompts = session.prompts ?? {};
  const vouch = Object.hasOwn(prompts, event.key) ? prompts[event.key] : undefined;
  const kind = classifyPrompt(event.lineKind, event.key, () => vouch !== undefined);
  delete prompts[event.key];
  const outcome: PromptOutcome = { key: event.key, kind };
  out.prompts.push(outcome);
  if (kind !== "typed" || !vouch) return;
  // The session's first prompt, even one of the plugin's own commands, starts task 1.
  if (!vouch.own || session.main.task === 0) scopeEvents(session, "main", [{ kind: "prompt", typed: true }], out);
  applySwitch(session, vouch, outcome);
}

/** A switch applies over older ones only: `on` took effect at its vouch, and an older `off` seen later must not undo it. */
function applySwitch(session: SessionDraft, vouch: VouchedPrompt, outcome: PromptOutcome): void {
  const seq = vouch.seq ?? 0;
  if (!vouch.switch || seq <= (session.switchSeq ?? 0)) return;
  session.manualGate = vouch.switch === "on";
  session.switchSeq = seq;
  outcome.switched = vouch.switch;
}
