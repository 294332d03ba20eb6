// What `/utility status` shows (SPEC §9): scope, task, step, budgets and
// spend, gating and the last report, per scope. Pure: the session's state, its
// log records and the user's settings in, text out. The CLI and the
// UserPromptExpansion hook both answer with it.
import type { LogRecord } from "../log/record.js";
import { agentKey, type ScopeKey } from "../engine/session/events.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import { frontmatterBudgetsOf, gateOf, rootSpendOf, rootTaskOf, sessionSpend } from "../engine/session/views.js";
import { hasSessionBudget } from "../engine/session-budget.js";
import { agentsPastCap } from "../engine/session/budget-input.js";
import { tightestBudgets, type Budgets } from "../engine/budget.js";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { zeroSpend } from "../engine/spend.js";
import type { UserConfig } from "../optin/user-config.js";
import { describeAgainstBudgets, describeAgentCaps, describeCapsSet, describeSessionBudgets } from "./budget-status.js";
import { taskLabel } from "./task-label.js";

export interface SessionView {
  /** The data folder the session's files are in. */
  dir: string;
  state: SessionState | undefined;
  records: LogRecord[];
  /** The user's settings as the environment carries them (absent where it does not). */
  userConfig?: UserConfig;
  /** The settings' problems in words, with the fix (src/optin/user-config.ts). */
  settingsProblem?: string;
  /** The OTLP export's counts for the session (sent, dropped, waiting), when it ran (src/otlp/progress.ts). */
  otlp?: string;
  /** The live ClickHouse export's counts for the session (rows sent, records waiting, failed sends), when it ran (src/clickhouse/progress.ts). */
  clickhouse?: string;
}

/**
 * What `/utility on|off` stands at: as it is in effect, and a switch asked for
 * that is not in effect yet (typed through the model path, an `off` takes
 * effect once Claude Code has written the prompt). Never a switch that has not
 * taken effect shown as made (issue 18).
 */
export function switchStatus(state: SessionState): string {
  const now = state.manualGate ? "on" : "off";
  if (state.pendingOff && state.manualGate)
    return "on (/utility off answered: it takes effect at the next hook, once Claude Code has written that answer to the transcript)";
  const waiting = Object.values(state.prompts ?? {}).filter((p) => p.switch !== undefined && (p.seq ?? 0) > (state.switchSeq ?? 0));
  const asked = waiting.at(-1)?.switch;
  return asked && asked !== now
    ? `${now} (/utility ${asked} asked: it takes effect at the next tool call, once Claude Code has written the prompt)`
    : now;
}

/** The score and the floor a gated scope is held to, in words a user reads without the docs (issue 34). */
function utilityInWords(config: { lambdas: readonly number[]; floor: number }): string {
  const [cost, uncertainty, redundancy] = config.lambdas;
  return `U = Gain − ${cost}·StepCost − ${uncertainty}·Uncertainty − ${redundancy}·Redundancy; below ${config.floor} the task ends`;
}

/** The main scope's task; a subagent is named by the task that launched it, never by a count of its own (issue 34). */
function taskOf(session: SessionState, key: ScopeKey): string {
  return key === "main" ? taskLabel(scopeAt(session, key).task) : `in ${taskLabel(rootTaskOf(session, key))}`;
}

/** What every scope's description reads besides the scope itself. */
interface StatusContext {
  session: SessionState;
  records: LogRecord[];
  userConfig: UserConfig | undefined;
}

/** `step 3 of 10, 1 refused; gated by …` or, where no step budget binds, `step 12, 0 refused; not gated`. */
function stepAndGate(gate: GateSource | undefined): (step: number, refusals: number) => string {
  if (!gate) return (step, refusals) => `step ${step}, ${refusals} refused; not gated`;
  const config = gate.config;
  const invalid = gate.problem ? `; INVALID opt-in: ${gate.problem}` : "";
  return (step, refusals) =>
    `step ${step} of ${config.maxSteps}, ${refusals} refused; gated by ${gate.file} (${utilityInWords(config)})${invalid}`;
}

function describeScope(name: string, key: ScopeKey, { session, records, userConfig }: StatusContext): string[] {
  const scope = scopeAt(session, key);
  const gate = gateOf(session, key);
  const lines = [`${name}: ${taskOf(session, key)}, ${stepAndGate(gate)(scope.step, scope.refusals)}${scope.ended ? "; ended" : ""}`];
  lines.push(spendLine(session, key, userConfig, gate?.budgets));
  const caps = capsLine(session, key, userConfig);
  if (caps) lines.push(caps);
  const agentId = key === "main" ? undefined : key.slice("agent:".length);
  const last = [...records].reverse().find((r) => r.report && (agentId ? r.agentId === agentId : !r.agentId));
  if (last?.report) {
    const r = last.report;
    lines.push(
      `  last report: ${r.action} U=${r.utility} (Gain ${r.gain}, StepCost ${r.stepCost}, Uncertainty ${r.uncertainty}, Redundancy ${r.redundancy}) → ${last.decision}${last.rule ? ` (${last.rule})` : ""}`,
    );
  }
  return lines;
}

/**
 * The scope's own spend, and its root task's (subagents rolled up) against the
 * budgets in force, from the reducer's state: the user's (as the hooks last
 * saw them, or this command's environment) always, the gating file's while gated.
 */
function spendLine(session: SessionState, key: ScopeKey, userConfig: UserConfig | undefined, gateBudgets: Budgets | undefined): string {
  const scope = scopeAt(session, key);
  const prices = withOverride(DEFAULT_PRICES, userConfig?.prices);
  const budgets = tightestBudgets(userBudgetsOf(session, userConfig), gateBudgets);
  const own = describeAgainstBudgets(scope.spend ?? zeroSpend(), {}, prices).replace(/; no task budget set$/, "");
  return `  spent by this scope: ${own}; by its task: ${describeAgainstBudgets(rootSpendOf(session, key), budgets, prices)}`;
}

/** The whole session's spend against the user's session budgets, when one is set (issue 34: every budget in force is shown). */
function sessionLine(session: SessionState, userConfig: UserConfig | undefined): string | undefined {
  const budgets = userConfig?.session;
  if (!budgets || !hasSessionBudget(budgets)) return undefined;
  const prices = withOverride(DEFAULT_PRICES, userConfig.prices);
  return `session, every task and subagent: ${describeSessionBudgets(sessionSpend(session), budgets, prices)}`;
}

/** Caps per subagent (SPEC §16): a subagent's own spend against them; for the main scope, what each subagent may spend. */
function capsLine(session: SessionState, key: ScopeKey, userConfig: UserConfig | undefined): string | undefined {
  const prices = withOverride(DEFAULT_PRICES, userConfig?.prices);
  const budgets = tightestBudgets(userBudgetsOf(session, userConfig), frontmatterBudgetsOf(session, key));
  if (key === "main") {
    const set = describeCapsSet(budgets);
    return set ? `  caps per subagent: ${set}` : undefined;
  }
  const own = describeAgentCaps(scopeAt(session, key).spend ?? zeroSpend(), budgets, prices);
  return own ? `  its own caps: ${own}` : undefined;
}

/** The user's budgets: this command's environment when it has them, else as the hooks last saw them. */
function userBudgetsOf(session: SessionState, userConfig: UserConfig | undefined): Budgets | undefined {
  return userConfig && Object.keys(userConfig.budgets).length > 0 ? userConfig.budgets : session.userBudgets;
}

/** The options in force that are the organization's (SPEC §17), with their values, when there are any. */
function organizationLine(userConfig: UserConfig | undefined): string | undefined {
  const set = userConfig?.organization ?? [];
  if (set.length === 0) return undefined;
  return `set by your organization (managed settings; yours cannot loosen them): ${set.map((o) => `${o.option} ${o.value}`).join(", ")}`;
}

/** What the settings say beyond one scope: a problem, the organization's values, the export, the session's budgets. */
function settingsLines(view: SessionView, state: NonNullable<SessionView["state"]>): string[] {
  const lines = view.settingsProblem ? [`INVALID settings: ${view.settingsProblem}`] : [];
  const said = [organizationLine(view.userConfig), view.otlp, view.clickhouse, sessionLine(state, view.userConfig)];
  return [...lines, ...said.filter((line): line is string => line !== undefined && line !== "")];
}

/** The text `/utility status` shows: scope, task, step, budget, gating and the last report, per scope. */
export function renderStatus(sessionId: string, view: SessionView | undefined): string {
  if (!view?.state) return `utility: no record of session ${sessionId} yet (no tool call has been seen).\n`;
  const { state, records } = view;
  const lines = [`utility status, session ${sessionId}`, `/utility on: ${switchStatus(state)}`];
  lines.push(...settingsLines(view, state));
  const ctx: StatusContext = { session: state, records, userConfig: view.userConfig };
  const past = agentsPastCap(state, {
    budgets: userBudgetsOf(state, view.userConfig) ?? {},
    ...(view.userConfig?.prices ? { prices: view.userConfig.prices } : {}),
  });
  if (past.length > 0)
    lines.push(`subagents past their own cap: ${past.map((p) => `${p.agentId} (${p.agentType ?? "no type"})`).join(", ")}`);
  lines.push(...describeScope("main scope", "main", ctx));
  for (const [id, scope] of Object.entries(state.agents)) {
    lines.push(...describeScope(`subagent ${id}${scope.agentType ? ` (${scope.agentType})` : ""}`, agentKey(id), ctx));
  }
  return `${lines.join("\n")}\n`;
}
