/**
 * Reads one file's opt-in (SPEC §5) from its parsed frontmatter: each key
 * checked (./key-checks.ts), look-alike keys named, the values set onto the
 * defaults (./schema.ts). Pure: it takes the parsed frontmatter, never a file.
 *
 * Keys are read at the top level (the original skill's convention) and under
 * `metadata:` (portable to the Skills API). Every problem names the file, the
 * key, what was found and what is expected, in one sentence.
 */
import { isDeepStrictEqual } from "node:util";
import { BUDGET_FIELD, BUDGET_KEYS } from "../engine/budget.js";
import { GUARD_FIELD, GUARD_KEYS } from "../engine/guards.js";
import { checkKey, type Check } from "./key-checks.js";
import { defaultOptIn, OPT_IN_KEYS, optInProblem, type OptIn, type OptInKey, type OptInProblem, type OptInResult } from "./schema.js";
import { describeValue, isPlainObject } from "./yaml-value.js";

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
