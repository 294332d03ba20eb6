import {
  budgetNames,
  checkAgentLimit,
  checkSpendBudget,
  checkStartedPastLimit,
  checkStepBudget,
  tightestBudgets,
  type BudgetRefusal,
  type Budgets,
} from "./budget.js";
import { FAILED_STOPS_PAST_BUDGET, PLANNING_CALLS_PAST_BUDGET } from "./defaults.js";
import { refused, type GateBudget, type GateDecision, type GateInput } from "./gate-input.js";

export type { WindDown } from "./gate-input.js";
import { checkSessionBudgets } from "./session-budget.js";
import { checkAgentCaps } from "./agent-caps.js";
import { isNeutralTool, stopsWork } from "./tools.js";

/**
 * The budgets in the gate (SPEC §12), for every scope: the user's and the
 * frontmatter's, and what a call may still do once one is spent. Only a
 * wind-down call goes on past a spent budget: a planning call (so a stopped
 * model can find the tool that stops its jobs, or answer), a few of them and
 * no repeat; and a call that stops work, which no budget refuses (a model
 * must be able to stop its own runaway job), until a few of them stopped nothing.
 */

/** Budgets in force: the user's, and the frontmatter's that bind the scope; the smallest of each wins. */
export function budgetsInForce(input: { budget?: Pick<GateBudget, "user" | "gate"> }): Budgets {
  if (!input.budget) return {};
  return tightestBudgets(input.budget.user, input.budget.gate);
}

const refusal = (over: BudgetRefusal): GateDecision => refused(over.rule, over.reason);

/** The first budget spent that binds the scope, every call alike: the task's spend, the session's and the window's, a subagent started past the agent limit, and a gated task's steps. */
export function spentBudget(input: GateInput): BudgetRefusal | undefined {
  return spendSpent(input) ?? (input.gated ? checkStepBudget(input.step, input.config.maxSteps) : undefined);
}

/** The spend budgets: the task's, the session's and the window's, and a subagent started past the agent limit. */
function spendSpent(input: GateInput): BudgetRefusal | undefined {
  return input.budget ? budgetSpent(input.budget) : undefined;
}

/**
 * The first spend budget spent that binds a scope: a subagent's own caps
 * (the most specific: it is told to stop and report), the task's, the
 * session's and the window's, and a subagent started past the agent limit.
 */
export function budgetSpent(budget: GateBudget): BudgetRefusal | undefined {
  const budgets = tightestBudgets(budget.user, budget.gate);
  const names = budgetNames(budget.user, budget.gate, budget.organization);
  return (
    (budget.agent ? checkAgentCaps(budget.agent, budgets, budget.prices, names) : undefined) ??
    checkSpendBudget(budget.spend, budgets, budget.prices, names) ??
    (budget.beyond ? checkSessionBudgets(budget.beyond.spent, budget.beyond.budgets, budget.prices, budget.organization) : undefined) ??
    checkStartedPastLimit(budget.startedAs, budgets, names)
  );
}

/**
 * Spend and agent budgets. The user's settings, when invalid, refuse in a
 * gated scope only (SPEC §10): an ungated one is never blocked by them, and
 * the valid ones still apply. (A gated task's steps are checked with its report.)
 */
export function checkBudgets(input: GateInput): GateDecision | undefined {
  const budget = input.budget;
  if (!budget) return undefined;
  if (budget.userProblem && input.gated)
    return refused("budget_invalid", `No budget can be enforced while a setting is invalid: ${budget.userProblem}`);
  const launches = input.actsAs ? input.actsAs.action === "delegate" : undefined;
  const over =
    spendSpent(input) ??
    checkAgentLimit(
      input.tool,
      budget.launched,
      budgetsInForce(input),
      launches,
      budgetNames(budget.user, budget.gate, budget.organization),
    );
  return over ? refusal(over) : undefined;
}

/** Which wind-down call this is: a planning tool, one that stops work, or neither (a Skill call that acts as more is neither). */
export function windDownKind(input: GateInput): "plans" | "stops" | undefined {
  if (input.actsAs) return undefined;
  if (isNeutralTool(input.tool)) return "plans";
  return stopsWork(input.tool) ? "stops" : undefined;
}

/**
 * A planning or stopping call, decided by the budgets: undefined when none is
 * spent (the call goes on as usual: a planning call is neutral, a stop needs
 * its report when gated); past one, let through or refused by the wind-down
 * rules, marked `pastBudget` so that the session remembers it.
 */
export function decideWindDown(input: GateInput, kind: "plans" | "stops"): GateDecision | undefined {
  const spent = spentBudget(input);
  if (!spent) return undefined;
  const earlier = input.windDown?.earlier ?? [];
  if (kind === "stops") {
    const failed = earlier.filter((c) => stopsWork(c.tool) && c.failed).length;
    if (failed >= FAILED_STOPS_PAST_BUDGET)
      return refusal({
        rule: "budget_spent",
        reason: `${spent.reason} Past it, calls that stop work go on until ${FAILED_STOPS_PAST_BUDGET} of them stopped nothing; ${failed} came back with an error, so this ${input.tool} call is refused too.`,
      });
    const hint = `utility: this ${input.tool} call goes on though a budget is spent (${spent.reason.split(": ")[0]}): no budget refuses a call that stops work.`;
    return { decision: "observed", hint, pastBudget: true };
  }
  const planned = earlier.filter((c) => isNeutralTool(c.tool));
  const again = planned.some((c) => c.tool === input.tool && c.digest === input.windDown?.digest);
  const found = again ? `this ${input.tool} call repeats one made since it was spent` : `${planned.length} were made since it was spent`;
  if (again || planned.length >= PLANNING_CALLS_PAST_BUDGET)
    return refusal({
      rule: "budget_spent",
      reason: `${spent.reason} Past it, at most ${PLANNING_CALLS_PAST_BUDGET} planning calls go on, none repeating another; ${found}.`,
    });
  return { decision: "neutral", pastBudget: true };
}
