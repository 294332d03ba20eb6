// A frontmatter value as YAML gave it: whether it is a mapping, and what it
// is, in words an opt-in problem can show.
import { boundedJson } from "../engine/bounded-value.js";

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
