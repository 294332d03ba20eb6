/**
 * Every default number of the framework, in one place. The skill's Markdown
 * states the same numbers; test/markdown checks that both sides agree.
 */

export const DEFAULT_CONFIG = {
  lambdas: [1.0, 0.5, 0.8] as [number, number, number],
  floor: -0.5,
  maxSteps: 10,
  highGainThreshold: 0.7,
} as const;

/** U = Gain − λ1·StepCost − λ2·Uncertainty − λ3·Redundancy with default λ and signals in [0, 1]. */
export const UTILITY_MIN = -2.3;
export const UTILITY_MAX = 1.0;

/** Two values closer than this are equal (ties, utility agreement). */
export const EPSILON = 1e-9;

export const STEP_COST_WEIGHTS = {
  withCeiling: { progress: 0.5, tokens: 0.3, model: 0.2 },
  noCeiling: { progress: 0.71, tokens: 0, model: 0.29 },
} as const;

export const MODEL_RATIOS = { haiku: 0.1, sonnet: 0.4, opus: 1.0 } as const;

export const DISPATCH_OVERHEAD = [
  { minAgents: 1, maxAgents: 3, add: 0 },
  { minAgents: 4, maxAgents: 5, add: 0.1 },
  { minAgents: 6, maxAgents: 8, add: 0.2 },
  { minAgents: 9, maxAgents: Infinity, add: 0.3 },
] as const;

/** On an exact tie, the action that spends less and ends sooner wins. */
export const TIE_BREAK_ORDER = ["stop", "respond", "verify", "retrieve", "tool_call", "delegate"] as const;

/**
 * SPEC §13: when the last this-many runs of one call returned the same result,
 * the next run is a stuck loop. `utility_stuck_after` (frontmatter) and the
 * user's `stuck_after` change it; 0 turns identical-outcome notices and the
 * stuck-loop rule off.
 */
export const DEFAULT_STUCK_AFTER = 3;

/** SPEC §13: a stuck call still runs under the gate when its report's Redundancy is at least this (the model expects the same result). */
export const STUCK_REDUNDANCY = 0.9;

/** SPEC §12: the rolling window of `window_cost_budget_usd` when `window_hours` is not set: the length of Claude's usage windows. */
export const DEFAULT_WINDOW_HOURS = 5;

/**
 * SPEC §12: past a spent budget, a planning call (TodoWrite, ToolSearch, the
 * task-list tools) still goes on, so a stopped model can find the tool that
 * stops its jobs and answer; but at most this many per task and scope, and
 * none that repeats one of them, so planning is no way to spend without end.
 */
export const PLANNING_CALLS_PAST_BUDGET = 3;

/**
 * SPEC §12: past a spent budget, a call that stops work (TaskStop, CronDelete)
 * is never refused for the budget, until this many of them, per task and
 * scope, came back with an error: a stop that stopped nothing.
 */
export const FAILED_STOPS_PAST_BUDGET = 3;

/**
 * SPEC §16: the model is told what is left of a budget when its scope starts
 * and when the spend crosses each of these fractions of it, never otherwise.
 */
export const BUDGET_NOTICE_THRESHOLDS = [0.5, 0.8, 1] as const;

/** The longest window a user may set, in hours (a week); the spend ledger keeps a day more than this. */
export const MAX_WINDOW_HOURS = 168;

/** With `utility_step_cost: computed`, a reported StepCost may fall this far below the computed one, no further (SPEC §12). */
export const STEP_COST_TOLERANCE = 0.05;

/**
 * The most text the gate reads for the report of one tool call: the model's
 * text before the call in its message (SPEC §6). A report is a few hundred
 * characters, a long-form one with a table a few KB; anything larger is
 * refused by its size, so no text the model writes can make the hook slow.
 */
export const MAX_REPORT_TEXT_CHARS = 64 * 1024;

/**
 * PreToolUse decides within this many milliseconds of its process's start,
 * well inside its `hooks.json` timeout (15 s; when that passes, Claude Code
 * runs the call undecided). At the deadline a gated scope refuses. Not
 * shorter: on a loaded machine 32 parallel hooks queue for the state lock
 * for several seconds, and a deadline that cuts them off would lose steps.
 */
export const PRE_TOOL_USE_DEADLINE_MS = 8000;

/** SPEC §8: how long step logs and state files are kept when `log_retention_days` / `log_max_mb` are not set. */
export const RETENTION_DEFAULTS = { maxAgeDays: 30, maxMb: 100 } as const;
