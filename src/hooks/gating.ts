import { transcriptSize } from "../transcript/source.js";
import { join } from "node:path";
import type { GateSource, ScopeState, SessionState } from "../state/schema.js";
import { findSkillActivations } from "../transcript/queries.js";
import { readEventsFrom } from "../transcript/forward-reader.js";
import { skillBaseDir } from "../transcript/line.js";
import { keepsLine, isPrompt } from "../transcript/line-filter.js";
import { reduceScope, type ScopeRef } from "./scope.js";
import type { ScopeEvent } from "../engine/scope-state/events.js";
import type { Outcome } from "../engine/scope-state/reducer.js";
import { observedEvents } from "../transcript/scope-events.js";
import { gateSourceFrom, manualSource } from "../engine/gate-policy.js";

// Pure rules over the state, shared with the CLI; they live in src/engine/gate-policy.ts.
export { effectiveGate, gateSourceFrom, manualSource, MANUAL_GATE_FILE } from "../engine/gate-policy.js";

export type SkillLoader = (skillFile: string) => Promise<GateSource | undefined>;

/** Loads a skill's opt-in; the frontmatter reader (gray-matter, js-yaml) is imported only when a skill is activated. */
export const loadSkillSource: SkillLoader = async (skillFile) => {
  const { readOptIn } = await import("../optin/read.js");
  return gateSourceFrom(skillFile, readOptIn(skillFile));
};

export interface ScanResult {
  /** Skill folders activated since the scope's offset (in this task). */
  folders: string[];
  compacted: boolean;
  /** A real prompt was seen: the skills before it belonged to an earlier task. */
  promptSeen: boolean;
  nextOffset: number;
  /** What the lines read tell the scope's reducer: results, compactions, usage (src/transcript/scope-events.ts). */
  events: ScopeEvent[];
}

/** A main transcript no larger than this is read forward from its start at the first look; a larger one backwards to its task's start. */
export const FIRST_LOOK_FORWARD_BYTES = 4 * 1024 * 1024;

/**
 * What happened in the scope's transcript since the hooks last looked: skill
 * activations, prompts (a prompt starts a new task's list of skills),
 * compactions, results and usage. Reads forward from the stored offset only
 * (spend is never recomputed from the whole file); the first look at a large
 * main transcript reads back to the task's start only.
 */
export function scanTranscript(scope: ScopeState, ref: ScopeRef): ScanResult {
  // At a scope's first call Claude Code may not have created its transcript yet: nothing to see so far.
  const size = transcriptSize(ref.transcript);
  if (size < 0) return { folders: [], compacted: false, promptSeen: false, nextOffset: scope.offset, events: [] };
  if (scope.offset === 0 && ref.kind === "main" && size > FIRST_LOOK_FORWARD_BYTES) {
    // The size is taken before reading: lines written meanwhile are read again next time, never skipped.
    const activations = findSkillActivations(ref.transcript, { sinceLastUserPrompt: true, lines: ref.lines });
    return { folders: activations.map((a) => a.folder), compacted: false, promptSeen: false, nextOffset: size, events: [] };
  }
  const read = readEventsFrom(ref.transcript, scope.offset);
  let folders: string[] = [];
  let compacted = false;
  let promptSeen = false;
  let events: ScopeEvent[] = [];
  for (const event of read.events) {
    if (!keepsLine(event, { lines: ref.lines })) continue;
    if (event.kind === "compact") compacted = true;
    if (ref.kind === "main" && isPrompt(event)) {
      folders = [];
      promptSeen = true;
      // Usage written before the prompt belongs to an earlier task; results still end the calls they answer.
      events = events.filter((e) => e.kind !== "usage");
    }
    const folder = skillBaseDir(event);
    if (folder) folders.push(folder);
    events.push(...observedEvents(event));
  }
  return { folders, compacted, promptSeen, nextOffset: read.shrunk ? 0 : read.nextOffset, events };
}

/** Applies a scan to the scope: new skills (loaded once per task), history cleared by a compaction. */
export async function applyScan(scope: ScopeState, scan: ScanResult, load: SkillLoader): Promise<Outcome[]> {
  if (scan.promptSeen) scope.sources = [];
  const outcomes = reduceScope(scope, scan.events);
  for (const folder of scan.folders) {
    const file = join(folder, "SKILL.md");
    if (scope.sources.some((s) => s.file === file)) continue;
    const source = await load(file);
    // Ungated skills are remembered too, so their files are not read again this task.
    scope.sources.push(source ?? { ...manualSource(), file, gated: false });
  }
  scope.offset = scan.nextOffset;
  return outcomes;
}
