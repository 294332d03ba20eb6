import { existsSync } from "node:fs";
import type { LogRecord } from "../../log/record.js";
import { readLogFile } from "../../summary/load.js";
import { effectiveGate } from "../../engine/gate-policy.js";
import type { Conversation } from "../../engine/vocabulary.js";
import { locateSessionData } from "../../state/locate.js";
import { sessionLogPath } from "../../state/paths.js";
import type { ScopeState, SessionState } from "../../state/schema.js";
import { FileStateStore } from "../../state/store.js";
import { defaultConfig } from "../../engine/signals.js";
import { tightestBudgets, type Budgets } from "../../engine/budget.js";
import { DEFAULT_PRICES, withOverride } from "../../engine/prices.js";
import { zeroSpend } from "../../engine/spend.js";
import { parseUserConfig, type UserConfig } from "../../optin/user-config.js";
import { describeAgainstBudgets } from "../../summary/budget-status.js";
import { rootSpendOf } from "../../engine/scope-state/reducer.js";
import { requireOption } from "../args.js";
import type { CommandSpec } from "../commands.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";

const ARGS = "--session ID [--json]";
const USAGE = `utility status ${ARGS}`;

/** Which scope of a session: the main conversation, or one subagent. */
interface ScopeRef {
  kind: Conversation;
  agentId?: string;
}

export interface SessionView {
  dir: string;
  state: SessionState | undefined;
  records: LogRecord[];
  /** The user's budgets from the plugin's userConfig, as the environment carries them. */
  userConfig?: UserConfig;
}

/** Reads a session's state and log; the log's unreadable lines are skipped. */
export function loadSession(env: CliIo["env"], sessionId: string): SessionView | undefined {
  const dir = locateSessionData(env, sessionId);
  if (!dir) return undefined;
  const state = new FileStateStore(dir).read(sessionId);
  const file = sessionLogPath(dir, sessionId);
  const records = existsSync(file) ? readLogFile(file).records : [];
  return { dir, state: state && withPendingSwitch(state), records, userConfig: parseUserConfig(env) };
}

/**
 * The `/utility on|off` the user just typed: the command's shell line runs
 * before any hook has seen the prompt's transcript line, so the switch it
 * asked for is shown as made (a wakeup's prompt never runs the command:
 * Claude Code skips slash commands for it).
 */
function withPendingSwitch(state: SessionState): SessionState {
  const pending = Object.values(state.prompts ?? {})
    .filter((p) => p.switch !== undefined)
    .at(-1);
  return pending ? { ...state, manualGate: pending.switch === "on" } : state;
}

/** What every scope's description reads besides the scope itself. */
interface StatusContext {
  session: SessionState;
  records: LogRecord[];
  userConfig: UserConfig | undefined;
}

function describeScope(name: string, scope: ScopeState, ref: ScopeRef, { session, records, userConfig }: StatusContext): string[] {
  const gate = effectiveGate(session, scope, ref);
  const config = gate?.config ?? defaultConfig();
  const gating = gate
    ? `gated by ${gate.file} (floor ${config.floor}, λ ${config.lambdas.join(",")})${gate.problem ? `; INVALID opt-in: ${gate.problem}` : ""}`
    : "not gated";
  const lines = [
    `${name}: task ${scope.task}, step ${scope.step} of ${config.maxSteps}, ${scope.refusals} refused; ${gating}${scope.ended ? "; ended" : ""}`,
  ];
  lines.push(spendLine(session, scope, userConfig, gate?.budgets));
  const last = [...records].reverse().find((r) => r.report && (ref.agentId ? r.agentId === ref.agentId : !r.agentId));
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
function spendLine(session: SessionState, scope: ScopeState, userConfig: UserConfig | undefined, gateBudgets: Budgets | undefined): string {
  const prices = withOverride(DEFAULT_PRICES, userConfig?.prices);
  const user = userConfig && Object.keys(userConfig.budgets).length > 0 ? userConfig.budgets : session.userBudgets;
  const budgets = tightestBudgets(user, gateBudgets);
  const own = describeAgainstBudgets(scope.spend ?? zeroSpend(), {}, prices).replace(/; no budget set$/, "");
  return `  spend: ${own}; task: ${describeAgainstBudgets(rootSpendOf(session, scope), budgets, prices)}`;
}

/** The text `/utility status` shows: scope, task, step, budget, gating and the last report, per scope. */
export function renderStatus(sessionId: string, view: SessionView | undefined): string {
  if (!view?.state) return `utility: no record of session ${sessionId} yet (no tool call has been seen).\n`;
  const { state, records } = view;
  const lines = [`utility status, session ${sessionId}`, `/utility on: ${state.manualGate ? "on" : "off"}`];
  for (const p of view.userConfig?.problems ?? []) lines.push(`INVALID budget setting: ${p.message}`);
  const ctx: StatusContext = { session: state, records, userConfig: view.userConfig };
  lines.push(...describeScope("main scope", state.main, { kind: "main" }, ctx));
  for (const [id, scope] of Object.entries(state.agents)) {
    lines.push(
      ...describeScope(`subagent ${id}${scope.agentType ? ` (${scope.agentType})` : ""}`, scope, { kind: "agent", agentId: id }, ctx),
    );
  }
  return `${lines.join("\n")}\n`;
}

function runStatus({ values }: Parsed, io: CliIo): number {
  const sessionId = requireOption(values.session, "session", USAGE);
  let view: SessionView | undefined;
  try {
    view = loadSession(io.env, sessionId);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.json) printJson(io, { session: sessionId, dataDir: view?.dir ?? null, state: view?.state ?? null });
  else io.stdout(renderStatus(sessionId, view));
  return 0;
}

export const STATUS: CommandSpec = {
  name: "status",
  summary: "a session's scopes: task, step, budget, gating, last report",
  usage: ARGS,
  options: [
    ["--session <id>", "the session id"],
    ["--json", "print JSON"],
  ],
  run: runStatus,
};
