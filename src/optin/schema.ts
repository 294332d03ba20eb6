/**
 * The opt-in keys a skill or agent sets in its frontmatter (SPEC §5), and the
 * rules that check them. Pure: it takes the parsed frontmatter, never a file.
 *
 * Keys are read at the top level (the original skill's convention) and under
 * `metadata:` (portable to the Skills API). Every problem names the file, the
 * key, what was found and what is expected, in one sentence.
 */
import { isDeepStrictEqual } from "node:util";
import * as z from "zod/mini";
import { DEFAULT_CONFIG, UTILITY_MAX, UTILITY_MIN } from "../engine/defaults.js";
import { CALL_ACTIONS, isEndingAction, LambdasSchema, OPT_IN_SCOPES, OptInScopeSchema } from "../engine/vocabulary.js";
import {
  BUDGET_EXPECTED,
  BUDGET_FIELD,
  BUDGET_KEYS,
  CostBudgetSchema,
  MaxAgentsSchema,
  StepCostModeSchema,
  TokenBudgetSchema,
  type Budgets,
} from "../engine/budget.js";
import { boundedJson } from "../engine/bounded-value.js";
import { ConfirmAboveSchema, GUARD_EXPECTED, GUARD_FIELD, GUARD_KEYS, StuckAfterSchema, type Guards } from "../engine/guards.js";

export const OPT_IN_KEYS = [
  "utility_gated",
  "utility_floor",
  "utility_max_steps",
  "utility_lambdas",
  "utility_scope",
  "utility_tools",
  ...BUDGET_KEYS,
  ...GUARD_KEYS,
] as const;
export type OptInKey = (typeof OPT_IN_KEYS)[number];

/**
 * A file may extend the permitted tools of the actions that take a call
 * (CALL_ACTIONS). `respond` and `stop` end the loop and take no tool call
 * (SPEC §3), so extra tools for them are refused rather than silently ignored.
 */

/** A tool name as Claude Code spells it: `Read`, `Bash`, `mcp__server__tool`. */
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

export const GatedSchema = z.boolean();
export const FloorSchema = z.number().check(z.gte(UTILITY_MIN), z.lte(UTILITY_MAX));
export const MaxStepsSchema = z.int().check(z.gte(1));
export const ToolNameSchema = z.string().check(z.regex(TOOL_NAME));
export const ToolsSchema = z.partialRecord(z.enum(CALL_ACTIONS), z.array(ToolNameSchema));

/** The whole opt-in, with SPEC §5 defaults. `resolveOptIn` gives better messages; this is the contract. */
export const OptInSchema = z.object({
  utility_gated: z._default(GatedSchema, false),
  utility_floor: z._default(FloorSchema, DEFAULT_CONFIG.floor),
  utility_max_steps: z._default(MaxStepsSchema, DEFAULT_CONFIG.maxSteps),
  utility_lambdas: z._default(LambdasSchema, () => [...DEFAULT_CONFIG.lambdas] as [number, number, number]),
  utility_scope: z._default(OptInScopeSchema, "self"),
  utility_tools: z._default(ToolsSchema, {}),
  utility_token_budget: z.optional(TokenBudgetSchema),
  utility_cost_budget_usd: z.optional(CostBudgetSchema),
  utility_max_agents: z.optional(MaxAgentsSchema),
  utility_step_cost: z.optional(StepCostModeSchema),
  utility_stuck_after: z.optional(StuckAfterSchema),
  utility_confirm_above_uncertainty: z.optional(ConfirmAboveSchema),
});

/** The opt-in's values as the schema gives them: the types below are derived from it, the defaults taken from it. */
type OptInValues = z.output<typeof OptInSchema>;

export interface OptIn {
  gated: OptInValues["utility_gated"];
  floor: OptInValues["utility_floor"];
  maxSteps: OptInValues["utility_max_steps"];
  lambdas: OptInValues["utility_lambdas"];
  scope: OptInValues["utility_scope"];
  /** Extra tool names per action, added to the gate's defaults (SPEC §6). */
  tools: OptInValues["utility_tools"];
  /** Spend budgets (SPEC §12); a key not set is absent. */
  budgets: Budgets;
  /** The runaway guards (SPEC §13, §14); a key not set is absent. */
  guards: Guards;
  /** The opt-in keys the file sets, top level or under metadata; empty when it sets none. */
  keys: OptInKey[];
}

/** One thing wrong with a file's opt-in. `message` is one sentence a model or a person can act on. */
export interface OptInProblem {
  file: string;
  /** The key as written: `utility_floor`, `metadata.utility_floor`, `utility_tools.verify`, or `frontmatter`. */
  key: string;
  found: string;
  expected: string;
  message: string;
}
/** Alias kept short for callers that only deal with opt-in problems. */
export type Problem = OptInProblem;

export type OptInResult = { ok: true; optIn: OptIn } | { ok: false; problems: OptInProblem[] };

export function defaultOptIn(): OptIn {
  const d = OptInSchema.parse({});
  return {
    gated: d.utility_gated,
    floor: d.utility_floor,
    maxSteps: d.utility_max_steps,
    lambdas: d.utility_lambdas,
    scope: d.utility_scope,
    tools: d.utility_tools,
    budgets: {},
    guards: {},
    keys: [],
  };
}

export function optInProblem(file: string, key: string, found: string, expected: string): OptInProblem {
  return { file, key, found, expected, message: `${file}: ${key} is ${found}; expected ${expected}.` };
}

/** The line `utility check` prints: `file: key: found …; expected …`. */
export function formatProblemLine(p: OptInProblem): string {
  return `${p.file}: ${p.key}: found ${p.found}; expected ${p.expected}`;
}

const MAX_SHOWN = 60;

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** Says what a YAML value is, in words: `the string "true"`, `-3`, `a list of 2 values [1, 0.5]`; never reads more of it than it shows. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (typeof value === "string") return `the string ${clip(boundedJson(value, MAX_SHOWN))}`;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : `the number ${String(value)}`;
  if (typeof value === "boolean") return String(value);
  if (value instanceof Date) return `the date ${Number.isNaN(value.getTime()) ? "(invalid)" : value.toISOString().slice(0, 10)}`;
  if (Array.isArray(value)) {
    const n = value.length;
    return `a list of ${n} value${n === 1 ? "" : "s"} ${clip(safeJson(value))}`;
  }
  if (typeof value === "object") return `a mapping ${clip(safeJson(value))}`;
  return `a ${typeof value}`;
}

/** A value's JSON, no more of it than is shown: an alias bomb is never expanded (src/engine/bounded-value.ts). */
function safeJson(value: unknown): string {
  return boundedJson(value, MAX_SHOWN);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

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

type Check<T> = { ok: true; value: T } | { ok: false; problems: Array<{ key: string; found: string; expected: string }> };

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
  utility_token_budget: (key, value) => checkSimple(TokenBudgetSchema, key, "utility_token_budget", value),
  utility_cost_budget_usd: (key, value) => checkSimple(CostBudgetSchema, key, "utility_cost_budget_usd", value),
  utility_max_agents: (key, value) => checkSimple(MaxAgentsSchema, key, "utility_max_agents", value),
  utility_step_cost: (key, value) => checkSimple(StepCostModeSchema, key, "utility_step_cost", value),
  utility_stuck_after: (key, value) => checkSimple(StuckAfterSchema, key, "utility_stuck_after", value),
  utility_confirm_above_uncertainty: (key, value) => checkSimple(ConfirmAboveSchema, key, "utility_confirm_above_uncertainty", value),
};

/** `"true"` or `off` written as text: say which boolean to write. */
function gatedHint(value: unknown): string | undefined {
  if (typeof value !== "string" || !/^(true|false|yes|no|on|off)$/i.test(value.trim())) return undefined;
  return `${EXPECTED.utility_gated}; write ${/^(true|yes|on)$/i.test(value.trim()) ? "true" : "false"}`;
}

function scopeHint(value: unknown): string | undefined {
  return value === "subagent" ? `${EXPECTED.utility_scope} (a subagent's scope comes from being spawned, not from frontmatter)` : undefined;
}

function checkKey(base: OptInKey, key: string, value: unknown): Check<unknown> {
  return CHECKS[base](key, value);
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** Keys that look like an opt-in key but are not one: `utility_gate`, `Utility_Gated`, `utility-floor`. */
function isLookAlike(key: string): boolean {
  return /^utility[_-]/i.test(key) && !(OPT_IN_KEYS as readonly string[]).includes(key);
}

function nearestKey(key: string): OptInKey | undefined {
  const normal = key.toLowerCase().replace(/-/g, "_");
  let best: OptInKey | undefined;
  let bestDistance = Infinity;
  for (const candidate of OPT_IN_KEYS) {
    const d = levenshtein(normal, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= 3 ? best : undefined;
}

/**
 * Reads the opt-in of one file from its parsed frontmatter. `undefined`,
 * `null` or `{}` (no frontmatter) means not opted in: the defaults, ungated.
 */
export function resolveOptIn(frontmatterData: unknown, file: string): OptInResult {
  if (frontmatterData === undefined || frontmatterData === null) return { ok: true, optIn: defaultOptIn() };
  if (!isPlainObject(frontmatterData)) {
    return { ok: false, problems: [optInProblem(file, "frontmatter", describeValue(frontmatterData), "a YAML mapping of keys to values")] };
  }
  const top = frontmatterData;
  const read: KeysRead = { file, top, meta: isPlainObject(top.metadata) ? top.metadata : {}, problems: [] };
  const optIn = defaultOptIn();
  const values: Partial<Record<OptInKey, unknown>> = {};
  for (const base of OPT_IN_KEYS) {
    const found = readKey(read, base);
    if (found === "absent") continue;
    optIn.keys.push(base);
    if (found.ok) values[base] = found.value;
  }
  pushLookAlikes(read);
  if (read.problems.length > 0) return { ok: false, problems: read.problems };
  applyValues(optIn, values);
  return { ok: true, optIn };
}

/** One file's frontmatter being read: where keys may sit, and the problems found so far. */
interface KeysRead {
  file: string;
  top: Record<string, unknown>;
  meta: Record<string, unknown>;
  problems: OptInProblem[];
}

/** One opt-in key, at the top level, under metadata or both: its checked value, or not ok with its problems recorded. */
function readKey({ file, top, meta, problems }: KeysRead, base: OptInKey): "absent" | { ok: true; value: unknown } | { ok: false } {
  const atTop = Object.prototype.hasOwnProperty.call(top, base);
  const atMeta = Object.prototype.hasOwnProperty.call(meta, base);
  if (!atTop && !atMeta) return "absent";
  const checks: Array<Check<unknown>> = [];
  if (atTop) checks.push(checkKey(base, base, top[base]));
  if (atMeta) checks.push(checkKey(base, `metadata.${base}`, meta[base]));
  if (pushFailedChecks(file, checks, problems)) return { ok: false };
  if (atTop && atMeta && !isDeepStrictEqual(top[base], meta[base])) {
    problems.push(
      optInProblem(
        file,
        base,
        `${describeValue(top[base])} at the top level and ${describeValue(meta[base])} under metadata`,
        "one value: set the key in one place, or the same value in both",
      ),
    );
    return { ok: false };
  }
  const first = checks[0]!;
  return first.ok ? { ok: true, value: first.value } : { ok: false };
}

/** The problems of each failed check; true when any failed. */
function pushFailedChecks(file: string, checks: ReadonlyArray<Check<unknown>>, problems: OptInProblem[]): boolean {
  let failed = false;
  for (const check of checks) {
    if (check.ok) continue;
    failed = true;
    for (const p of check.problems) problems.push(optInProblem(file, p.key, p.found, p.expected));
  }
  return failed;
}

function pushLookAlikes({ file, top, meta, problems }: KeysRead): void {
  const lookAlikes = [
    ...Object.keys(top)
      .filter(isLookAlike)
      .map((k) => ({ key: k, shown: k })),
    ...Object.keys(meta)
      .filter(isLookAlike)
      .map((k) => ({ key: k, shown: `metadata.${k}` })),
  ];
  for (const { key, shown } of lookAlikes) {
    const near = nearestKey(key);
    problems.push(optInProblem(file, shown, `an unknown key${near ? ` (did you mean ${near}?)` : ""}`, `one of ${OPT_IN_KEYS.join(", ")}`));
  }
}

/** The checked values onto the defaults: each key given replaces its default. */
function applyValues(optIn: OptIn, values: Partial<Record<OptInKey, unknown>>): void {
  if (values.utility_gated !== undefined) optIn.gated = values.utility_gated as boolean;
  if (values.utility_floor !== undefined) optIn.floor = values.utility_floor as number;
  if (values.utility_max_steps !== undefined) optIn.maxSteps = values.utility_max_steps as number;
  if (values.utility_lambdas !== undefined) optIn.lambdas = [...(values.utility_lambdas as OptIn["lambdas"])];
  if (values.utility_scope !== undefined) optIn.scope = values.utility_scope as OptIn["scope"];
  if (values.utility_tools !== undefined) optIn.tools = values.utility_tools as OptIn["tools"];
  for (const key of BUDGET_KEYS) {
    if (values[key] !== undefined) (optIn.budgets as Record<string, unknown>)[BUDGET_FIELD[key]] = values[key];
  }
  for (const key of GUARD_KEYS) {
    if (values[key] !== undefined) (optIn.guards as Record<string, unknown>)[GUARD_FIELD[key]] = values[key];
  }
}
