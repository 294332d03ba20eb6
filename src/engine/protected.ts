// The gate's own records are not the model's to edit (SPEC §6). Pure: paths in, a reason out.
import { normalizePath } from "./redundancy.js";
import { WRITING_TOOL_PATH_KEYS } from "./tools.js";

/** The paths a writing tool's input names (as written; the caller resolves relative ones). */
export function writeTargets(tool: string, input: unknown): string[] {
  const keys = Object.hasOwn(WRITING_TOOL_PATH_KEYS, tool) ? WRITING_TOOL_PATH_KEYS[tool]! : [];
  const fields = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  return keys.map((k) => fields[k]).filter((v): v is string => typeof v === "string" && v !== "");
}

export interface GuardedPlaces {
  /** The plugin's data folder (state, step logs). */
  dataDir: string;
  /** The folder of the session's transcripts (its subagents' files are under it). */
  transcriptDir: string;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/**
 * Why writing `path` (absolute, already resolved) is refused, or undefined:
 * it lies inside the plugin's data folder, or it is a transcript (a `.jsonl`
 * file in the session's transcript folder or below).
 */
export function protectedReason(path: string, places: GuardedPlaces): string | undefined {
  const target = normalizePath(path);
  const data = normalizePath(places.dataDir);
  const transcripts = normalizePath(places.transcriptDir);
  if (target === null) return undefined;
  if (data !== null && within(target, data))
    return `${path} is inside the plugin's data folder (${places.dataDir}), where the gate keeps its state and step log`;
  if (transcripts !== null && within(target, transcripts) && target.endsWith(".jsonl"))
    return `${path} is a transcript file, which the gate reads as the record of what was said`;
  return undefined;
}
