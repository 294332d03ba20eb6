/**
 * The opt-in keys a skill or agent sets in its frontmatter (SPEC §5): their
 * schema, the opt-in they make, and its problems. The rules that check them
 * are ./resolve.ts (reading a file's keys) and ./key-checks.ts (each value).
 */
import * as z from "zod/mini";
import { DEFAULT_CONFIG, UTILITY_MAX, UTILITY_MIN } from "../engine/defaults.js";
import { CALL_ACTIONS, LambdasSchema, OptInScopeSchema } from "../engine/vocabulary.js";
import {
  BUDGET_KEYS,
  CostBudgetSchema,
  MaxAgentsSchema,
  StepCostModeSchema,
  TokenBudgetSchema,
  ToolCallsSchema,
  type Budgets,
} from "../engine/budget.js";
import { ConfirmAboveSchema, GUARD_KEYS, StuckAfterSchema, type Guards } from "../engine/guards.js";

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

/** A tool name as Claude Code spells it: `Read`, `Bash`, `mcp__server__tool`. */
export const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

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
  utility_max_tool_calls: z.optional(ToolCallsSchema),
  utility_agent_token_budget: z.optional(TokenBudgetSchema),
  utility_agent_cost_budget_usd: z.optional(CostBudgetSchema),
  utility_agent_max_tool_calls: z.optional(ToolCallsSchema),
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
