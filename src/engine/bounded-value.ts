/**
 * Bounds on the YAML the plugin reads, and a way to describe any value
 * without expanding it (issue 31, hole 10).
 *
 * A YAML reader shares an aliased value instead of copying it, so a 1 KB
 * block can stand for a billion values: parsing it is quick, but whatever
 * walks the value afterwards (describing it, checking it, printing it)
 * expands every alias. So a block is refused before anything walks it when it
 * is longer than MAX_FRONTMATTER_CHARS, or when its value, aliases expanded,
 * counts more than MAX_EXPANDED_SIZE (one per value, plus each text's length).
 * Without aliases a block within the first bound stays well within the
 * second: only aliases can pass it. The walk that decides stops as soon as the
 * bound is passed, so it costs at most the bound.
 *
 * Pure: no I/O.
 */

/** The longest frontmatter block read, in characters: Claude Code's own cap for frontmatter it does not trust (docs/claude-code-facts.md). */
export const MAX_FRONTMATTER_CHARS = 65_536;
/** The most a parsed block may count with its aliases expanded: one per value, plus the length of each text. */
export const MAX_EXPANDED_SIZE = 262_144;

/** Why a block is over the bounds: the key (as `utility_floor`, `metadata.x`, or `frontmatter`), what was found, what is expected. */
export interface YamlBounds {
  key: string;
  found: string;
  expected: string;
}

/** Thrown by a bounded YAML reader. Recognised by name (isYamlBoundsError): the reader and its callers may live in different bundles. */
export class YamlBoundsError extends Error {
  constructor(readonly bounds: YamlBounds) {
    super(`${bounds.key} is ${bounds.found}; expected ${bounds.expected}`);
    this.name = "YamlBoundsError";
  }
}

export function isYamlBoundsError(error: unknown): error is YamlBoundsError {
  return error instanceof Error && error.name === "YamlBoundsError" && typeof (error as { bounds?: unknown }).bounds === "object";
}

const counted = (n: number) => n.toLocaleString("en-US");

/** A block longer than MAX_FRONTMATTER_CHARS; undefined when it is within. */
export function blockTooLong(block: string): YamlBounds | undefined {
  if (block.length <= MAX_FRONTMATTER_CHARS) return undefined;
  return {
    key: "frontmatter",
    found: `a block of ${counted(block.length)} characters`,
    expected: `at most ${counted(MAX_FRONTMATTER_CHARS)} characters of YAML between the --- lines`,
  };
}

interface Pending {
  value: unknown;
  /** The mapping keys leading to the value, at most two deep (`metadata.utility_floor`). */
  path: readonly string[];
}

/** A plain object, as YAML mappings are (a date or a buffer is a leaf). */
function isMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keys the plugin reads come first, so that the key blamed is the one written for it when it is among those too large. */
const readFirst = (key: string) => /^(utility_|metadata$)/.test(key);

/** Puts a value's items on the stack, the first on top. */
function pushChildren(stack: Pending[], item: Pending, root: boolean): void {
  const { value, path } = item;
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i] as unknown, path });
    return;
  }
  if (!isMapping(value)) return;
  const keys = Object.keys(value);
  const ordered = root ? [...keys.filter(readFirst), ...keys.filter((k) => !readFirst(k))] : keys;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const key = ordered[i]!;
    stack.push({ value: value[key], path: path.length < 2 ? [...path, key] : path });
  }
}

/**
 * The path of the value at which a parsed block, walked with its aliases
 * expanded, passes `limit`; undefined when the whole of it stays within.
 * Visits at most `limit + 1` values.
 */
export function passesBound(value: unknown, limit = MAX_EXPANDED_SIZE): readonly string[] | undefined {
  const stack: Pending[] = [{ value, path: [] }];
  let size = 0;
  let root = true;
  while (stack.length > 0) {
    const item = stack.pop()!;
    size += 1 + (typeof item.value === "string" ? item.value.length : 0);
    if (size > limit) return item.path;
    pushChildren(stack, item, root);
    root = false;
  }
  return undefined;
}

/** A parsed block too large once its aliases are expanded; undefined when it is within MAX_EXPANDED_SIZE. */
export function tooLarge(value: unknown): YamlBounds | undefined {
  const path = passesBound(value);
  if (path === undefined) return undefined;
  return {
    key: path.length > 0 ? path.join(".") : "frontmatter",
    found: `YAML whose aliases expand past ${counted(MAX_EXPANDED_SIZE)} values and characters`,
    expected: `at most ${counted(MAX_EXPANDED_SIZE)} values and characters once aliases are expanded (a plain value, not an alias bomb)`,
  };
}

interface Out {
  text: string;
  max: number;
}

function writeList(items: readonly unknown[], out: Out): void {
  out.text += "[";
  for (let i = 0; i < items.length && out.text.length <= out.max; i++) {
    if (i > 0) out.text += ",";
    const item = items[i];
    write(item === undefined || typeof item === "function" || typeof item === "symbol" ? null : item, out);
  }
  out.text += "]";
}

function writeMapping(value: Record<string, unknown>, out: Out): void {
  out.text += "{";
  let first = true;
  for (const key of Object.keys(value)) {
    if (out.text.length > out.max) break;
    const item = value[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    out.text += `${first ? "" : ","}${JSON.stringify(key.slice(0, out.max + 1))}:`;
    first = false;
    write(item, out);
  }
  out.text += "}";
}

function write(value: unknown, out: Out): void {
  if (out.text.length > out.max) return;
  // As JSON.stringify: an object's toJSON first (a date becomes its ISO text).
  const json = typeof value === "object" && value !== null ? (value as { toJSON?: unknown }).toJSON : undefined;
  const plain: unknown = typeof json === "function" ? (json as () => unknown).call(value) : value;
  if (typeof plain === "string") out.text += JSON.stringify(plain.slice(0, out.max + 1));
  else if (typeof plain === "number") out.text += Number.isFinite(plain) ? String(plain) : "null";
  else if (plain === null || typeof plain === "boolean") out.text += String(plain);
  else if (Array.isArray(plain)) writeList(plain, out);
  else if (typeof plain === "object") writeMapping(plain as Record<string, unknown>, out);
  else out.text += String(plain);
}

/**
 * A value's JSON text as JSON.stringify writes it, cut after `max`
 * characters: at most `max + 1` long, and never walking more of the value
 * than it writes, whatever its aliases or cycles.
 */
export function boundedJson(value: unknown, max: number): string {
  const out: Out = { text: "", max };
  write(value, out);
  return out.text.slice(0, max + 1);
}
