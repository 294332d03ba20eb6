// Words and numbers a person reads in a history: which task, which subagent,
// how much. Pure; shared by the text and the HTML page.
import type { SubagentWhere } from "./agent-caps.js";

/** Where a task is, to show it. */
export interface TaskWhere {
  session: string;
  project?: string;
  task: number;
  prompt?: string;
  startedAt?: string;
}

/** A session id as shown: its first 8 characters (a uuid's first group). */
export function shortSession(session: string): string {
  return session.length > 8 ? session.slice(0, 8) : session;
}

/** `session 3f2a9c1e, task 4 (2026-11-14): "refactor the parser…"`. */
export function taskLabel(where: TaskWhere, options: { project?: boolean } = {}): string {
  const date = where.startedAt?.slice(0, 10);
  const project = options.project && where.project !== undefined ? `${where.project}, ` : "";
  const prompt = where.prompt !== undefined ? `: "${where.prompt}"` : " (a resumed session: no prompt)";
  return `${project}session ${shortSession(where.session)}, task ${where.task}${date ? ` (${date})` : ""}${prompt}`;
}

/** `subagent (Explore) launched at task 3: "find the config…"`. */
export function subagentLabel(sub: SubagentWhere, task: number): string {
  const type = sub.type !== undefined ? ` (${sub.type})` : "";
  const asked = sub.asked !== undefined ? `: "${sub.asked}"` : ` (${sub.id})`;
  return `subagent${type} launched at task ${task}${asked}`;
}

/**
 * 1234567.891 → "1,234,567.89": thousands grouped, at most two decimals.
 * (toLocaleString would do it, but its first call loads ICU: about 150 ms.)
 */
export function grouped(n: number): string {
  const [whole, fraction] = (Math.round(n * 100) / 100).toString().split(".");
  const sign = whole!.startsWith("-") ? "-" : "";
  const digits = sign ? whole!.slice(1) : whole!;
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction ? `.${fraction}` : ""}`;
}

/** 1234 → "1,234"; 12,345,678 → "12.3 M"; 1.2e9 → "1.2 B". */
export function tokensText(n: number): string {
  if (n >= 1e9) return `${trim(n / 1e9)} B`;
  if (n >= 1e6) return `${trim(n / 1e6)} M`;
  if (n >= 1e5) return `${trim(n / 1e3)} k`;
  return grouped(n);
}

function trim(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1).replace(/\.0$/, "") : v.toFixed(2).replace(/0$/, "").replace(/\.0$/, "");
}

/** Dollars: cents, or four decimals below a cent. */
export function usdText(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  const [whole, cents] = usd.toFixed(2).split(".");
  return `$${grouped(Number(whole))}.${cents}`;
}

export function bytesText(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} kB`;
  return `${bytes} B`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}

export function percentText(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

/** What an identical outcome is (SPEC §13), true of both kinds: a retry of a failed call, or a run after something that could change it. */
export function identicalText(count: number): string {
  return `Identical outcomes: ${plural(count, "call")} returned byte for byte what the same call returned at its last run, and ${count === 1 ? "was" : "were"} no exact repeat: that run had failed (a retry), or something that could change the result ran in between.`;
}

/** Stuck loops shown by name; the rest are counted. */
const SHOWN_STUCK = 5;

/** The stuck loops (SPEC §13) of a history in words: a head line, one item per loop shown, and how many more. */
export function stuckWords(found: ReadonlyArray<TaskWhere & { tool: string; runs: number; refused: boolean }>): {
  head: string;
  items: string[];
} {
  if (found.length === 0)
    return { head: "Stuck loops: none: no call came after the last runs of the same call had all returned the same result.", items: [] };
  const items = found
    .slice(0, SHOWN_STUCK)
    .map((s) => `${s.tool} after ${s.runs} runs with one result${s.refused ? ", refused" : ""}, in ${taskLabel(s)}`);
  if (found.length > SHOWN_STUCK) items.push(`and ${found.length - SHOWN_STUCK} more`);
  return {
    head: `Stuck loops: ${plural(found.length, "call")} came after the last runs of the same call had all returned the same result, byte for byte (a stuck loop: refused when gated, hinted otherwise):`,
    items,
  };
}
