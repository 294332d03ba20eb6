import { sha256Hex } from "./sha256.js";
import { isNeutralTool, isPollingTool, isReadOnlyTool, whatItDoes, WRITING_TOOL_PATH_KEYS } from "./tools.js";

/**
 * Exact repeats the code can prove (SPEC §7): the same tool with the same
 * input already ran in this scope since the last compaction, and nothing in
 * between could have changed its result. Anything subtler is the model's
 * estimate, not the code's.
 */

/** How a call can affect the result of later calls. */
export type CallEffect =
  | { kind: "read"; paths: string[] } // read-only; `paths` it looks at ([] = unknown or not a file)
  | { kind: "write"; paths: string[] } // writes these files
  | { kind: "exec"; background?: boolean } // Bash and tools whose effects the code cannot know: may change anything; `background`: it goes on changing things after its result came back
  | { kind: "poll" } // polling and bookkeeping: never a repeat, changes nothing
  | { kind: "neutral" };

export interface RanCall {
  tool: string;
  digest: string;
  effect: CallEffect;
  /** Where it ran, for messages: a step number or a transcript position. */
  at: number;
  /** The task it ran in, when known: a step of another task is named with it. */
  task?: number;
  toolUseId?: string;
  /** A job it launched in the background: the id Claude Code gave it (shell id, agent id), to match its end (SPEC §7). */
  jobId?: string;
  /** The call came back with an error: its effect still counts (it may have done part of its work), but it is never the original of a repeat. */
  failed?: boolean;
}

const READ_PATH_KEYS = ["file_path", "path", "notebook_path"];

function stringsAt(input: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.map((k) => input[k]).filter((v): v is string => typeof v === "string" && v !== "");
}

/**
 * Does this call start something that keeps running after its result came
 * back? A background shell or agent can change anything at any later time.
 * Claude Code 2.1 runs an `Agent` in the background unless
 * `run_in_background: false` (docs/claude-code-facts.md); `Task` and `Bash`
 * only when `run_in_background: true`.
 */
function startsInBackground(tool: string, fields: Record<string, unknown>): boolean {
  if (tool === "Agent") return fields.run_in_background !== false;
  return fields.run_in_background === true;
}

/** Classifies a call by what it may change or read. */
export function effectOf(tool: string, input: unknown): CallEffect {
  const fields = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  if (isPollingTool(tool)) return { kind: "poll" };
  if (isNeutralTool(tool)) return { kind: "neutral" };
  if (isReadOnlyTool(tool)) return { kind: "read", paths: stringsAt(fields, READ_PATH_KEYS) };
  const writeKeys = Object.hasOwn(WRITING_TOOL_PATH_KEYS, tool) ? WRITING_TOOL_PATH_KEYS[tool] : undefined;
  if (writeKeys) return { kind: "write", paths: stringsAt(fields, writeKeys) };
  return startsInBackground(tool, fields) ? { kind: "exec", background: true } : { kind: "exec" };
}

/** Stands, in a canonical form, for a value that contains itself; no JSON text can contain it, so it never equals a real value's form. */
export const CYCLE_MARKER = "<cycle>";

/** A piece of text to write (closing a container when `closes` is set), or a value still to walk. */
type Pending = { text: string; closes?: object } | { value: unknown };

/**
 * JSON with object keys sorted, so that key order never makes two inputs
 * differ. Walked with an explicit stack, not recursion: an input nested
 * 50 000 levels deep still gets its exact, deterministic form. A value that
 * contains itself (never the case in parsed JSON) is written as CYCLE_MARKER.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>(); // the containers being written: the ancestors of the next value
  const todo: Pending[] = [{ value }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if ("text" in next) {
      out.push(next.text);
      if (next.closes) open.delete(next.closes);
    } else out.push(write(next.value, open, todo));
  }
  return out.join("");
}

/** A leaf's text; or, for a container, its opening, with its parts and closing pushed onto `todo` to come next. */
function write(value: unknown, open: Set<object>, todo: Pending[]): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (open.has(value)) return CYCLE_MARKER;
  open.add(value);
  // Pushed last part first, so that they come off the stack in order (no spread: an array may have millions of items).
  const isArray = Array.isArray(value);
  todo.push({ text: isArray ? "]" : "}", closes: value });
  if (isArray) {
    for (let i = value.length - 1; i >= 0; i--) {
      todo.push({ value: value[i] });
      if (i > 0) todo.push({ text: "," });
    }
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .sort()
      .filter((k) => record[k] !== undefined);
    for (let i = keys.length - 1; i >= 0; i--)
      todo.push({ value: record[keys[i]!] }, { text: `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:` });
  }
  return isArray ? "[" : "{";
}

/**
 * An absolute POSIX path with `.`, `..`, repeated and trailing slashes
 * resolved; null when the path is relative, starts with `~`, or is not POSIX:
 * the code cannot tell what it names, so it cannot prove two paths differ.
 */
export function normalizePath(path: string): string | null {
  if (!path.startsWith("/")) return null;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** SHA-256 of a string as UTF-8, 64 lowercase hex digits: ./sha256.ts, or node:crypto's where a shell has it loaded (replay). */
export type Sha256Hex = (text: string) => string;

/**
 * The digest of a call's input that repeats are matched on and the step log
 * records: SHA-256 of the canonical JSON, first 32 hex digits.
 */
export function inputDigest(toolInput: unknown, sha256: Sha256Hex = sha256Hex): string {
  return sha256(canonicalJson(toolInput)).slice(0, 32);
}

/**
 * The digest a call is known by (repeats, stuck loops, identical outcomes,
 * the step log's `inputDigest`): of what it does, its tool's cosmetic fields
 * left out (./tools.ts `whatItDoes`), so that the hooks and replay match calls alike.
 */
export function callDigest(tool: string, toolInput: unknown, sha256: Sha256Hex = sha256Hex): string {
  return inputDigest(whatItDoes(tool, toolInput), sha256);
}

function isWithin(path: string, folder: string): boolean {
  const f = folder.endsWith("/") ? folder : `${folder}/`;
  return path === folder || path.startsWith(f);
}

/** Could a write to `written` change what a read of `read` (a file, or a folder it searches) sees? */
function touches(written: string, read: string): boolean {
  const w = normalizePath(written);
  const r = normalizePath(read);
  if (w === null || r === null) return true; // relative or odd: assume it could
  return isWithin(w, r);
}

/** Could `between` have changed the result of a call with effect `target`? */
function couldChange(between: CallEffect, target: CallEffect): boolean {
  if (between.kind === "exec") return true;
  if (between.kind !== "write") return false;
  if (target.kind !== "read") return true; // a non-read call is invalidated by any write at all
  if (target.paths.length === 0 || between.paths.length === 0) return true; // unknown scope: assume it could
  // A read of a file or a search of a folder sees a write to that file or anything inside the folder.
  return between.paths.some((w) => target.paths.some((r) => touches(w, r)));
}

export interface Repeat {
  /** The latest earlier identical call. */
  previous: RanCall;
}

/**
 * Looks back through the calls that ran (oldest first, since the last
 * compaction) for an identical earlier call with nothing in between that
 * could have changed its result. A shell or agent started in the background
 * at any point of the history may still be changing things, so after one
 * nothing is provably a repeat. `inFlight`: calls let through whose results
 * have not come back (a parallel sibling, or one that failed without a
 * PostToolUse); they may be changing things right now, so they count as in
 * between, and are never the original.
 */
export function findExactRepeat(
  history: readonly RanCall[],
  call: { tool: string; digest: string; effect: CallEffect },
  inFlight: readonly RanCall[] = [],
): Repeat | undefined {
  if (call.effect.kind === "poll" || call.effect.kind === "neutral") return undefined;
  if (inFlight.some((running) => runsInBackground(running) || couldChange(running.effect, call.effect))) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const earlier = history[i]!;
    if (!earlier.failed && earlier.tool === call.tool && earlier.digest === call.digest) {
      return history.slice(0, i).some(runsInBackground) ? undefined : { previous: earlier };
    }
    if (couldChange(earlier.effect, call.effect)) return undefined;
  }
  return undefined;
}

function runsInBackground(ran: RanCall): boolean {
  return ran.effect.kind === "exec" && ran.effect.background === true;
}
