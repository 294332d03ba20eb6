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
  BUDGET_KEYS,
  BUDGET_SCHEMAS,
  BudgetsSchema,
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
import { RETENTION_DEFAULTS } from "../engine/defaults.js";
import { exampleOf, optionEnvName, PRICES_EXAMPLE } from "./options.js";
import type { PluginRef } from "../claude/plugin-id.js";
import { describeValue } from "./yaml-value.js";

/** The manifest's userConfig option for each budget key (the frontmatter name without `utility_`). */
export const USER_BUDGET_OPTIONS = Object.fromEntries(BUDGET_KEYS.map((key) => [key, key.slice("utility_".length)])) as Record<
  BudgetKey,
  string
>;
/** The manifest's userConfig option for each runaway guard (the frontmatter name without `utility_`). */
export const USER_GUARD_OPTIONS: Record<GuardKey, string> = {
  utility_stuck_after: "stuck_after",
  utility_confirm_above_uncertainty: "confirm_above_uncertainty",
};
/** The option that overrides the price table, as one line of JSON. */
export const PRICES_OPTION = "prices";

/** How long the step logs and state files are kept (SPEC §8): their options (the defaults are RETENTION_DEFAULTS). */
export const RETENTION_OPTIONS = { maxAgeDays: "log_retention_days", maxMb: "log_max_mb" } as const;
export type Retention = { maxAgeDays: number; maxMb: number };

export const PRICES_EXPECTED = `one line of JSON mapping opus, sonnet or haiku to any of input, output, cacheCreation, cacheRead in US dollars per million tokens, such as ${PRICES_EXAMPLE}`;

export interface UserConfigProblem {
  /** The option as the user sets it, and the variable it arrived in. */
  option: string;
  env: string;
  found: string;
  expected: string;
  /** A budget or the prices: what the gate enforces, so a gated scope refuses while it is invalid (SPEC §10). */
  enforcement: boolean;
}

export interface UserConfig {
  budgets: Budgets;
  /** Budgets beyond one task: the session's and the rolling window's (SPEC §12). */
  session: SessionBudgets;
  /** The runaway guards for every scope (SPEC §13, §14). */
  guards: Guards;
  prices?: PriceOverride;
  /** The retention options that are set and valid (the rest take RETENTION_DEFAULTS). */
  retention?: Partial<Retention>;
  /** Empty when every option that is set is valid. An invalid option is left out of the rest. */
  problems: UserConfigProblem[];
  /** The options whose value in force is the organization's managed settings' (SPEC §17; src/optin/managed.ts). */
  organization?: Array<{ option: string; value: string }>;
}

function problemOf(option: string, found: string, expected: string, enforcement = true): UserConfigProblem {
  return { option, env: optionEnvName(option), found, expected, enforcement };
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number option: the text as a number when it is one, else the text itself, so the schema rejects it by name. */
function asNumber(text: string): unknown {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : text;
}

/** A budget option's text as its schema reads it: a number, but for step_cost's word. */
const parseBudgetText = (key: BudgetKey, text: string): unknown => (key === "utility_step_cost" ? text.trim() : asNumber(text));

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

/** Any number of at least 1, as the manifest's `min: 1` lets through (Claude Code checks no whole numbers). */
const RetentionSchema = z.number().check(z.gte(1));
const RETENTION_EXPECTED = "a number of at least 1";

/** An option's text, or undefined when it is not set (absent or blank). */
function optionText(env: Readonly<Record<string, string | undefined>>, option: string): string | undefined {
  const text = env[optionEnvName(option)];
  return text === undefined || text.trim() === "" ? undefined : text;
}

function parseBudgets(env: Readonly<Record<string, string | undefined>>, problems: UserConfigProblem[]): Budgets {
  const budgets: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(USER_BUDGET_OPTIONS) as Array<[BudgetKey, string]>) {
    const text = optionText(env, option);
    if (text === undefined) continue;
    const value = parseBudgetText(key, text);
    const checked = BUDGET_SCHEMAS[key].safeParse(value);
    if (checked.success) budgets[BUDGET_FIELD[key]] = checked.data;
    else problems.push(problemOf(option, describeText(text, value), BUDGET_EXPECTED[key]));
  }
  return BudgetsSchema.parse(budgets);
}

function parseRetention(env: Readonly<Record<string, string | undefined>>, problems: UserConfigProblem[]): Partial<Retention> {
  const retention: Partial<Retention> = {};
  for (const [field, option] of Object.entries(RETENTION_OPTIONS) as Array<[keyof Retention, string]>) {
    const text = optionText(env, option);
    if (text === undefined) continue;
    const value = asNumber(text);
    const checked = RetentionSchema.safeParse(value);
    if (checked.success) retention[field] = checked.data;
    else problems.push(problemOf(option, describeText(text, value), RETENTION_EXPECTED, false));
  }
  return retention;
}

const GUARD_SCHEMAS: Record<GuardKey, z.ZodMiniType> = {
  utility_stuck_after: StuckAfterSchema,
  utility_confirm_above_uncertainty: ConfirmAboveSchema,
};

/** Number options, each checked by its schema: the valid ones by field; a problem for each invalid one. */
function readOptions<K extends string>(
  env: Readonly<Record<string, string | undefined>>,
  problems: UserConfigProblem[],
  keys: readonly K[],
  check: (key: K) => { schema: z.ZodMiniType; field: string; expected: string; option: string },
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of keys) {
    const { schema, field, expected, option } = check(key);
    const text = optionText(env, option);
    if (text === undefined) continue;
    const value = asNumber(text);
    const checked = schema.safeParse(value);
    if (checked.success) values[field] = checked.data;
    else problems.push(problemOf(option, describeText(text, value), expected));
  }
  return values;
}

/** The user's budgets, guards, price override and retention from the hook's environment; an empty or absent option is not set. */
export function parseUserConfig(env: Readonly<Record<string, string | undefined>>): UserConfig {
  const problems: UserConfigProblem[] = [];
  const budgets = parseBudgets(env, problems);
  const session = readOptions(env, problems, SESSION_BUDGET_OPTIONS, (option) => ({
    schema: SESSION_BUDGET_SCHEMAS[option],
    field: SESSION_BUDGET_FIELD[option],
    expected: SESSION_BUDGET_EXPECTED[option],
    option,
  }));
  const guards = readOptions(env, problems, GUARD_KEYS, (key) => ({
    schema: GUARD_SCHEMAS[key],
    field: GUARD_FIELD[key],
    expected: GUARD_EXPECTED[key],
    option: USER_GUARD_OPTIONS[key],
  }));
  const retention = parseRetention(env, problems);
  const out: UserConfig = {
    budgets,
    session: SessionBudgetsSchema.parse(session),
    guards: GuardsSchema.parse(guards),
    problems,
    ...(Object.keys(retention).length > 0 ? { retention } : {}),
  };
  const pricesText = optionText(env, PRICES_OPTION);
  if (pricesText !== undefined) {
    const { prices, problem } = parsePrices(pricesText);
    if (prices) out.prices = prices;
    if (problem) problems.push(problem);
  }
  return out;
}

/** The retention rule in force: the user's options that are set and valid, else the defaults. */
export function retentionOf(config: UserConfig): Retention {
  return { ...RETENTION_DEFAULTS, ...config.retention };
}

/**
 * The exact way to fix an option in Claude Code 2.1.328
 * (docs/settings.md): `claude plugin configure … --values-stdin` takes a JSON
 * object of strings; nothing in Claude Code clears a value, so clearing one is
 * an edit of the user's settings file.
 */
export function settingsFix(plugin: PluginRef, option: string): string {
  const value = JSON.stringify({ [option]: exampleOf(option) ?? "…" });
  const configure = plugin.inline
    ? `claude --plugin-dir ${plugin.root ?? "<plugin folder>"} plugin configure ${plugin.id} --values-stdin`
    : `claude plugin configure ${plugin.id} --values-stdin`;
  const where = `pluginConfigs["${plugin.id}"].options in ${plugin.settingsFile}`;
  const inApp = plugin.inline ? "" : `/plugin configure ${plugin.id} in Claude Code, or `;
  return `To set it: ${inApp}echo '${value}' | ${configure}. To clear it (back to its default), delete "${option}" from ${where}.`;
}

/**
 * Every problem in one line, naming each setting as the user sets it, what was
 * found and what is expected, then how to fix the first: for a refusal, the
 * warning on screen and `/utility status`. `only` keeps the problems that
 * weaken enforcement (what a gated scope refuses for).
 */
export function describeUserConfigProblems(config: UserConfig, plugin: PluginRef, only?: "enforcement"): string | undefined {
  const problems = only ? config.problems.filter((p) => p.enforcement) : config.problems;
  if (problems.length === 0) return undefined;
  const each = problems.map((p) => `${p.option} is ${p.found}; expected ${p.expected}`).join(". ");
  const plural = problems.length === 1 ? "setting" : "settings";
  return `your ${plugin.id} ${plural} ${each}. ${settingsFix(plugin, problems[0]!.option)}`;
}
