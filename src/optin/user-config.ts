/**
 * The user's own budgets, from the plugin's `userConfig` (SPEC §12). Claude
 * Code hands each option that is set to every hook of the plugin as
 * `CLAUDE_PLUGIN_OPTION_<KEY>` (the key upper-cased), always as a string; an
 * option that is not set is absent, its manifest default included. Values
 * are checked here because Claude Code checks them only when they are saved
 * through `claude plugin configure` or `/plugin configure`: a hand-edited
 * settings.json reaches the hooks as written (docs/claude-code-facts.md).
 *
 * Pure: it takes the environment as a record, never reads process.env.
 */
import * as z from "zod/mini";
import {
  BUDGET_EXPECTED,
  BUDGET_FIELD,
  BudgetsSchema,
  CostBudgetSchema,
  MaxAgentsSchema,
  StepCostModeSchema,
  TokenBudgetSchema,
  type BudgetKey,
  type Budgets,
} from "../engine/budget.js";
import { PriceOverrideSchema, type PriceOverride } from "../engine/prices.js";
import {
  ConfirmAboveSchema,
  GUARD_EXPECTED,
  GUARD_FIELD,
  GUARD_KEYS,
  GuardsSchema,
  StuckAfterSchema,
  type GuardKey,
  type Guards,
} from "../engine/guards.js";
import {
  SESSION_BUDGET_EXPECTED,
  SESSION_BUDGET_FIELD,
  SESSION_BUDGET_OPTIONS,
  SESSION_BUDGET_SCHEMAS,
  SessionBudgetsSchema,
  type SessionBudgets,
} from "../engine/session-budget.js";
import { describeValue } from "./schema.js";

/** The manifest's userConfig option for each budget key (the frontmatter name without `utility_`). */
export const USER_BUDGET_OPTIONS: Record<BudgetKey, string> = {
  utility_token_budget: "token_budget",
  utility_cost_budget_usd: "cost_budget_usd",
  utility_max_agents: "max_agents",
  utility_step_cost: "step_cost",
};
/** The manifest's userConfig option for each runaway guard (the frontmatter name without `utility_`). */
export const USER_GUARD_OPTIONS: Record<GuardKey, string> = {
  utility_stuck_after: "stuck_after",
  utility_confirm_above_uncertainty: "confirm_above_uncertainty",
};

/** The option that overrides the price table, as one line of JSON. */
export const PRICES_OPTION = "prices";

export const PRICES_EXPECTED =
  'one line of JSON mapping opus, sonnet or haiku to any of input, output, cacheCreation, cacheRead in US dollars per million tokens, such as {"opus":{"input":5,"output":25}}';

/** The environment variable Claude Code sets for an option (non-alphanumerics become `_`, then upper case). */
export function optionEnvName(option: string): string {
  return `CLAUDE_PLUGIN_OPTION_${option.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase()}`;
}

export interface UserConfigProblem {
  /** The option as the user sets it, and the variable it arrived in. */
  option: string;
  env: string;
  found: string;
  expected: string;
  message: string;
}

export interface UserConfig {
  budgets: Budgets;
  /** Budgets beyond one task: the session's and the rolling window's (SPEC §12). */
  session: SessionBudgets;
  /** The runaway guards for every scope (SPEC §13, §14). */
  guards: Guards;
  prices?: PriceOverride;
  /** Empty when every option that is set is valid. An invalid option is left out of `budgets`. */
  problems: UserConfigProblem[];
}

function problemOf(option: string, found: string, expected: string): UserConfigProblem {
  const env = optionEnvName(option);
  return {
    option,
    env,
    found,
    expected,
    message: `the plugin option ${option} (${env}) is ${found}; expected ${expected}. Fix it with /plugin configure utility, or claude plugin configure utility@<marketplace>.`,
  };
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number option: the text as a number when it is one, else the text itself, so the schema rejects it by name. */
function asNumber(text: string): unknown {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : text;
}

const SCHEMAS: Record<BudgetKey, { schema: z.ZodMiniType; parse: (text: string) => unknown }> = {
  utility_token_budget: { schema: TokenBudgetSchema, parse: (t) => asNumber(t) },
  utility_cost_budget_usd: { schema: CostBudgetSchema, parse: (t) => asNumber(t) },
  utility_max_agents: { schema: MaxAgentsSchema, parse: (t) => asNumber(t) },
  utility_step_cost: { schema: StepCostModeSchema, parse: (t) => t.trim() },
};

function describeText(text: string, parsed: unknown): string {
  return typeof parsed === "number" ? describeValue(parsed) : describeValue(text);
}

function parsePrices(text: string): { prices?: PriceOverride; problem?: UserConfigProblem } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: problemOf(PRICES_OPTION, describeValue(text), PRICES_EXPECTED) };
  }
  const parsed = PriceOverrideSchema.safeParse(json);
  if (!parsed.success) return { problem: problemOf(PRICES_OPTION, describeValue(json), PRICES_EXPECTED) };
  return { prices: parsed.data };
}

/** The user's budgets and price override from the hook's environment; an empty or absent option is not set. */
export function parseUserConfig(env: Readonly<Record<string, string | undefined>>): UserConfig {
  const budgets: Record<string, unknown> = {};
  const problems: UserConfigProblem[] = [];
  for (const [key, option] of Object.entries(USER_BUDGET_OPTIONS) as Array<[BudgetKey, string]>) {
    const text = env[optionEnvName(option)];
    if (text === undefined || text.trim() === "") continue;
    const { schema, parse } = SCHEMAS[key];
    const value = parse(text);
    const checked = schema.safeParse(value);
    if (checked.success) budgets[BUDGET_FIELD[key]] = checked.data;
    else problems.push(problemOf(option, describeText(text, value), BUDGET_EXPECTED[key]));
  }
  const session = readOptions(env, SESSION_BUDGET_OPTIONS, (o) => ({
    schema: SESSION_BUDGET_SCHEMAS[o],
    field: SESSION_BUDGET_FIELD[o],
    expected: SESSION_BUDGET_EXPECTED[o],
  }));
  const guards = readOptions(
    env,
    GUARD_KEYS,
    (key) => ({ schema: GUARD_SCHEMAS[key], field: GUARD_FIELD[key], expected: GUARD_EXPECTED[key] }),
    (key) => USER_GUARD_OPTIONS[key],
  );
  problems.push(...session.problems, ...guards.problems);
  const out: UserConfig = {
    budgets: BudgetsSchema.parse(budgets),
    session: SessionBudgetsSchema.parse(session.values),
    guards: GuardsSchema.parse(guards.values),
    problems,
  };
  const pricesText = env[optionEnvName(PRICES_OPTION)];
  if (pricesText !== undefined && pricesText.trim() !== "") {
    const { prices, problem } = parsePrices(pricesText);
    if (prices) out.prices = prices;
    if (problem) problems.push(problem);
  }
  return out;
}

const GUARD_SCHEMAS: Record<GuardKey, z.ZodMiniType> = {
  utility_stuck_after: StuckAfterSchema,
  utility_confirm_above_uncertainty: ConfirmAboveSchema,
};

/** Number options, each checked by its schema: the valid ones by field, and a problem for each invalid one. */
function readOptions<K extends string>(
  env: Readonly<Record<string, string | undefined>>,
  keys: readonly K[],
  check: (key: K) => { schema: z.ZodMiniType; field: string; expected: string },
  optionOf: (key: K) => string = (key) => key,
): { values: Record<string, unknown>; problems: UserConfigProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: UserConfigProblem[] = [];
  for (const key of keys) {
    const option = optionOf(key);
    const text = env[optionEnvName(option)];
    if (text === undefined || text.trim() === "") continue;
    const { schema, field, expected } = check(key);
    const value = asNumber(text);
    const checked = schema.safeParse(value);
    if (checked.success) values[field] = checked.data;
    else problems.push(problemOf(option, describeText(text, value), expected));
  }
  return { values, problems };
}

/** All problems in one line, for a refusal or for `utility status`. */
export function describeUserConfigProblems(config: UserConfig): string | undefined {
  return config.problems.length === 0 ? undefined : config.problems.map((p) => p.message).join(" ");
}
