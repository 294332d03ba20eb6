// How each opt-in key's value is checked (./resolve.ts reads the keys), and
// what a wrong value is told to be instead.
import * as z from "zod/mini";
import { UTILITY_MAX, UTILITY_MIN } from "../engine/defaults.js";
import { CALL_ACTIONS, isEndingAction, LambdasSchema, OPT_IN_SCOPES, OptInScopeSchema } from "../engine/vocabulary.js";
import { BUDGET_EXPECTED, BUDGET_KEYS, BUDGET_SCHEMAS, type BudgetKey } from "../engine/budget.js";
import { ConfirmAboveSchema, GUARD_EXPECTED, StuckAfterSchema } from "../engine/guards.js";
import { FloorSchema, GatedSchema, MaxStepsSchema, TOOL_NAME, type OptIn, type OptInKey } from "./schema.js";
import { describeValue, isPlainObject } from "./yaml-value.js";

const EXPECTED: Record<OptInKey, string> = {
  utility_gated: "a boolean (true or false, without quotes)",
  utility_floor: `a number from ${UTILITY_MIN} to ${UTILITY_MAX.toFixed(1)}, the range of U`,
  utility_max_steps: "a whole number of at least 1",
  utility_lambdas: "a list of exactly three numbers, each 0 or more, such as [1.0, 0.5, 0.8]",
  utility_scope: OPT_IN_SCOPES.join(" or "),
  utility_tools: `a mapping from ${CALL_ACTIONS.join(", ")} to lists of tool names, such as {verify: [mcp__ci__run_tests]}`,
  ...BUDGET_EXPECTED,
  ...GUARD_EXPECTED,
};

export type Check<T> = { ok: true; value: T } | { ok: false; problems: Array<{ key: string; found: string; expected: string }> };

function bad<T>(key: string, found: string, expected: string): Check<T> {
  return { ok: false, problems: [{ key, found, expected }] };
}

function checkSimple<T>(
  schema: z.ZodMiniType<T>,
  key: string,
  base: OptInKey,
  value: unknown,
  extra?: (value: unknown) => string | undefined,
): Check<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return bad(key, describeValue(value), extra?.(value) ?? EXPECTED[base]);
}

/**
 * A file may extend the permitted tools of the actions that take a call
 * (CALL_ACTIONS). `respond` and `stop` end the loop and take no tool call
 * (SPEC §3), so extra tools for them are refused rather than silently ignored.
 */
function checkTools(key: string, value: unknown): Check<OptIn["tools"]> {
  if (!isPlainObject(value)) return bad(key, describeValue(value), EXPECTED.utility_tools);
  const problems: Array<{ key: string; found: string; expected: string }> = [];
  const tools: OptIn["tools"] = {};
  for (const [action, names] of Object.entries(value)) {
    const at = `${key}.${action}`;
    if (isEndingAction(action)) {
      problems.push({
        key: at,
        found: describeValue(names),
        expected: `no entry: ${action} ends the loop and takes no tool call; extend ${CALL_ACTIONS.join(", ")} only`,
      });
      continue;
    }
    if (!(CALL_ACTIONS as readonly string[]).includes(action)) {
      problems.push({ key: at, found: "an unknown action", expected: `one of ${CALL_ACTIONS.join(", ")}` });
      continue;
    }
    if (!Array.isArray(names)) {
      problems.push({ key: at, found: describeValue(names), expected: "a list of tool names, such as [mcp__ci__run_tests]" });
      continue;
    }
    const good: string[] = [];
    names.forEach((name, i) => {
      if (typeof name === "string" && TOOL_NAME.test(name)) good.push(name);
      else
        problems.push({
          key: `${at}[${i}]`,
          found: describeValue(name),
          expected: "a tool name as Claude Code spells it, such as Read or mcp__server__tool",
        });
    });
    tools[action as keyof OptIn["tools"]] = good;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: tools };
}

/** How each key's value is checked, with the hint a near miss gets beyond what is expected. */
const CHECKS: Record<OptInKey, (key: string, value: unknown) => Check<unknown>> = {
  utility_gated: (key, value) => checkSimple(GatedSchema, key, "utility_gated", value, gatedHint),
  utility_floor: (key, value) => checkSimple(FloorSchema, key, "utility_floor", value),
  utility_max_steps: (key, value) => checkSimple(MaxStepsSchema, key, "utility_max_steps", value),
  utility_lambdas: (key, value) => checkSimple(LambdasSchema, key, "utility_lambdas", value),
  utility_scope: (key, value) => checkSimple(OptInScopeSchema, key, "utility_scope", value, scopeHint),
  utility_tools: checkTools,
  ...budgetChecks(),
  utility_stuck_after: (key, value) => checkSimple(StuckAfterSchema, key, "utility_stuck_after", value),
  utility_confirm_above_uncertainty: (key, value) => checkSimple(ConfirmAboveSchema, key, "utility_confirm_above_uncertainty", value),
};

/** Each budget key, checked by its schema (src/engine/budget.ts BUDGET_SCHEMAS). */
function budgetChecks(): Record<BudgetKey, (key: string, value: unknown) => Check<unknown>> {
  const checks = {} as Record<BudgetKey, (key: string, value: unknown) => Check<unknown>>;
  for (const base of BUDGET_KEYS) checks[base] = (key, value) => checkSimple(BUDGET_SCHEMAS[base], key, base, value);
  return checks;
}

/** `"true"` or `off` written as text: say which boolean to write. */
function gatedHint(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^(true|false|yes|no|on|off)$/i.test(value.trim())) return undefined;
  return `${EXPECTED.utility_gated}; write ${/^(true|yes|on)$/i.test(value.trim()) ? "true" : "false"}`;
}

function scopeHint(value: unknown): string | undefined {
  return value === "subagent" ? `${EXPECTED.utility_scope} (a subagent's scope comes from being spawned, not from frontmatter)` : undefined;
}

export function checkKey(base: OptInKey, key: string, value: unknown): Check<unknown> {
  return CHECKS[base](key, value);
}
