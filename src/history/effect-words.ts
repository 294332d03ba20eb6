// How a setting's value and what it would have done read, in the text and on
// the page (./text.ts, ./html.ts). Pure.
import type { BudgetEffect, BudgetSetting, StoppedTask } from "./budgets.js";
import { grouped, plural, subagentLabel, taskLabel, tokensText, usdText } from "./labels.js";

/** A setting's value with its unit: `130 k tokens`, `$4.50`, `12 subagents`, `40 tool calls`. */
export const SETTING_VALUE: Record<BudgetSetting, (v: number) => string> = {
  token_budget: (v) => `${tokensText(v)} tokens`,
  cost_budget_usd: usdText,
  max_agents: (v) => plural(v, "subagent"),
  max_tool_calls: (v) => plural(v, "tool call"),
  agent_token_budget: (v) => `${tokensText(v)} tokens per subagent`,
  agent_cost_budget_usd: (v) => `${usdText(v)} per subagent`,
  agent_max_tool_calls: (v) => `${plural(v, "tool call")} per subagent`,
};

/** `3 of 40 tasks`, or for a cap per subagent `2 of 17 subagents`. */
export function stoppedOf(effect: BudgetEffect): string {
  return effect.of === "subagents"
    ? `${grouped(effect.stopped)} of ${plural(effect.subagents ?? 0, "subagent")}`
    : `${grouped(effect.stopped)} of ${plural(effect.tasks, "task")}`;
}

/** Where a stopped task, or a stopped subagent and its task, is. */
export function stoppedLabel(stopped: StoppedTask, options: { project?: boolean } = {}): string {
  const task = taskLabel(stopped, options);
  return stopped.subagent ? `${subagentLabel(stopped.subagent, stopped.task)}, in ${task}` : task;
}
