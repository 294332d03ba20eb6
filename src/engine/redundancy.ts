import { isNeutralTool, isPollingTool, isReadOnlyTool } from "./tools.js";

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
  | { kind: "exec" } // Bash and tools whose effects the code cannot know: may change anything
  | { kind: "poll" } // polling and bookkeeping: never a repeat, changes nothing
  | { kind: "neutral" };

export interface RanCall {
  tool: string;
  digest: string;
  effect: CallEffect;
  /** Where it ran, for messages: a step number or a transcript position. */
  at: number;
  toolUseId?: string;
}

const WRITE_TOOLS: Record<string, string[]> = {
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
};

const READ_PATH_KEYS = ["file_path", "path", "notebook_path"];

function stringsAt(input: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.map((k) => input[k]).filter((v): v is string => typeof v === "string" && v !== "");
}

/** Classifies a call by what it may change or read. */
export function effectOf(tool: string, input: unknown): CallEffect {
  const fields = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  if (isPollingTool(tool)) return { kind: "poll" };
  if (isNeutralTool(tool)) return { kind: "neutral" };
  if (isReadOnlyTool(tool)) return { kind: "read", paths: stringsAt(fields, READ_PATH_KEYS) };
  const writeKeys = WRITE_TOOLS[tool];
  if (writeKeys) return { kind: "write", paths: stringsAt(fields, writeKeys) };
  return { kind: "exec" };
}

/** JSON with object keys sorted, so that key order never makes two inputs differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function isWithin(path: string, folder: string): boolean {
  const f = folder.endsWith("/") ? folder : `${folder}/`;
  return path === folder || path.startsWith(f);
}

/** Could `between` have changed the result of a call with effect `target`? */
function couldChange(between: CallEffect, target: CallEffect): boolean {
  if (between.kind === "exec") return true;
  if (between.kind !== "write") return false;
  if (target.kind !== "read") return true; // a non-read call is invalidated by any write at all
  if (target.paths.length === 0 || between.paths.length === 0) return true; // unknown scope: assume it could
  // A read of a file or a search of a folder sees a write to that file or anything inside the folder.
  return between.paths.some((w) => target.paths.some((r) => isWithin(w, r)));
}

export interface Repeat {
  /** The latest earlier identical call. */
  previous: RanCall;
}

/**
 * Looks back through the calls that ran (oldest first, since the last
 * compaction) for an identical earlier call with nothing in between that
 * could have changed its result.
 */
export function findExactRepeat(history: readonly RanCall[], call: { tool: string; digest: string; effect: CallEffect }): Repeat | undefined {
  if (call.effect.kind === "poll" || call.effect.kind === "neutral") return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const earlier = history[i]!;
    if (earlier.tool === call.tool && earlier.digest === call.digest) return { previous: earlier };
    if (couldChange(earlier.effect, call.effect)) return undefined;
  }
  return undefined;
}
