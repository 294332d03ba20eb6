// Transcript lines → the session machine's events: one ingestion for the hooks
// (a scope's new lines since their stored offset) and replay (a whole file).
// Pure. A skill's activation comes out as `skill_seen`: reading its file is
// the caller's I/O, which turns it into a `skill_loaded` event.
import { scoped, type ScopeKey, type SessionEvent } from "../engine/session/events.js";
import type { TranscriptEvent } from "../transcript/line-events.js";
import { skillBaseDir } from "../transcript/line.js";
import { observedEvents } from "../transcript/scope-events.js";
import type { Sha256Hex } from "../engine/redundancy.js";
import { promptKey } from "./prompts.js";

export type IngestItem = SessionEvent | { kind: "skill_seen"; scope: ScopeKey; folder: string };

/**
 * What one transcript event of a scope tells the machine, in order: a user
 * line of the main scope (what its own fields say it is; only a vouched one
 * starts a task), what the reducer learns by itself (results, usage,
 * compactions, background jobs' ends), and a skill's activation.
 */
export function ingestEvent(event: TranscriptEvent, key: ScopeKey, sha256?: Sha256Hex): IngestItem[] {
  const items: IngestItem[] = [];
  if (event.kind === "user_text" && key === "main" && event.lineKind !== "meta" && event.queued !== true) {
    items.push({ kind: "prompt_line", key: promptKey(event.promptId), lineKind: event.lineKind });
  }
  for (const observed of observedEvents(event, sha256)) items.push(scoped(key, observed));
  const folder = skillBaseDir(event);
  if (folder) items.push({ kind: "skill_seen", scope: key, folder });
  return items;
}

/** `sha256`: the hash for results' digests (the engine's own unless given; the same digests either way). */
export function ingestEvents(events: readonly TranscriptEvent[], key: ScopeKey, sha256?: Sha256Hex): IngestItem[] {
  return events.flatMap((event) => ingestEvent(event, key, sha256));
}

/** The prompt keys of the main scope's user lines among these events (to see whether an awaited prompt's line is written). */
export function promptKeysIn(events: readonly TranscriptEvent[]): string[] {
  return events.flatMap((event) => (event.kind === "user_text" && event.lineKind !== "meta" ? [promptKey(event.promptId)] : []));
}
