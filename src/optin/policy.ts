/**
 * Budgets an organization sets (issue 36, SPEC §17). Claude Code 2.1.328
 * hands a plugin its options from the user's settings, `--settings` and the
 * managed settings, the managed value over the user's option by option
 * (docs/claude-code-facts.md), so an organization's looser budget would
 * replace a user's tighter one. Here, for every budget and cap both set, the
 * smaller wins; every other option the organization sets is the
 * organization's. What is in force from the organization is named, for
 * `/utility status`.
 *
 * Pure: every layer is a record in the CLAUDE_PLUGIN_OPTION_* shape.
 */
import { SESSION_BUDGET_OPTIONS } from "../engine/session-budget.js";
import { optionEnvName, USER_OPTIONS } from "./options.js";
import { parseUserConfig, USER_BUDGET_OPTIONS } from "./user-config.js";

export type OptionEnv = Readonly<Record<string, string | undefined>>;

/** The options whose smaller value is the tighter one: every budget and cap (not step_cost's word, nor window_hours). */
export const TIGHTER_WHEN_SMALLER: readonly string[] = [
  ...Object.values(USER_BUDGET_OPTIONS).filter((option) => option !== "step_cost"),
  ...SESSION_BUDGET_OPTIONS.filter((option) => option !== "window_hours"),
];

export interface PolicyLayers {
  /** What Claude Code passed (CLAUDE_PLUGIN_OPTION_*): managed over `--settings` over the user's, option by option. */
  given: OptionEnv;
  /** The organization's options, from the managed settings files. */
  organization: OptionEnv;
  /** The user's own options, from their settings file. */
  user: OptionEnv;
}

export interface WithPolicy {
  /** `given` with each option the organization sets resolved: the smaller for a budget, else the organization's. */
  env: Record<string, string | undefined>;
  /** The options whose value in force is the organization's, in USER_OPTIONS order. */
  organization: string[];
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A set option's number, or undefined when it is absent, blank or not a number. */
function numberOf(text: string | undefined): number | undefined {
  const t = text?.trim();
  return t && DECIMAL.test(t) ? Number(t) : undefined;
}

/** A valid value of `option` (an invalid one is left out of the budgets, so it must never stand in for the organization's). */
function validNumber(option: string, text: string | undefined): number | undefined {
  const n = numberOf(text);
  return n !== undefined && parseUserConfig({ [optionEnvName(option)]: text }).problems.length === 0 ? n : undefined;
}

function textOf(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === "" ? undefined : text;
}

/** The options in force once the organization's are applied, and which of them are the organization's. */
export function withPolicy({ given, organization, user }: PolicyLayers): WithPolicy {
  const env: Record<string, string | undefined> = { ...given };
  const fromOrganization: string[] = [];
  for (const { option } of USER_OPTIONS) {
    const name = optionEnvName(option);
    const org = textOf(organization[name]);
    if (org === undefined) continue;
    const orgNumber = numberOf(org);
    if (orgNumber !== undefined && TIGHTER_WHEN_SMALLER.includes(option)) {
      const tighter = [given[name], user[name]]
        .filter((text) => (validNumber(option, text) ?? Infinity) < orgNumber)
        .sort((a, b) => numberOf(a)! - numberOf(b)!)[0];
      if (tighter !== undefined) {
        env[name] = tighter;
        continue;
      }
    }
    env[name] = org;
    fromOrganization.push(option);
  }
  return { env, organization: fromOrganization };
}
