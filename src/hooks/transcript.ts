// Reading a scope's transcript for the session machine: only what is new since
// the stored offset, and trouble the hook can see (SPEC §10, issue 18).
import type { ScopeState } from "../engine/session/state.js";
import { isPrompt, keepsLine } from "../transcript/line-filter.js";
import type { TranscriptEvent } from "../transcript/line-events.js";
import { readEventsFrom } from "../transcript/forward-reader.js";
import { readEventsBackward } from "../transcript/reverse-reader.js";
import { openTranscript, type OpenedTranscript } from "../transcript/source.js";
import { promptKey } from "../ingest/prompts.js";
import type { ScopeRef } from "./scope.js";

/**
 * The scope's transcript is not a file the plugin can read: a link, a FIFO,
 * a folder, or gone after lines were read from it. A model's shell can do
 * this to hide lines (issue 18); the hook says so, and a scope that may be
 * gated fails closed on it.
 */
export class TranscriptTrouble extends Error {
  override readonly name = "TranscriptTrouble";
}

export interface NewLines {
  /** The scope's own lines, oldest first. */
  events: TranscriptEvent[];
  nextOffset: number;
  /** Which file was read (device and inode); undefined when there is none yet. */
  transcriptId?: string;
}

const EXPLAINED: Record<string, string> = {
  ELOOP: "is a symbolic link",
  ENOTREG: "is not a regular file (a FIFO, a folder or a device)",
  EISDIR: "is a folder",
};

function open(ref: ScopeRef, offset: number): OpenedTranscript | undefined {
  let opened: OpenedTranscript | undefined;
  try {
    opened = openTranscript(ref.transcript);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new TranscriptTrouble(`the transcript ${ref.transcript} ${EXPLAINED[code] ?? `cannot be read (${code || String(error)})`}`);
  }
  // At a scope's first call Claude Code may not have created its file yet; once lines were read from it, it cannot go away.
  if (!opened && offset > 0)
    throw new TranscriptTrouble(`the transcript ${ref.transcript} is gone, after ${offset} bytes were read from it`);
  return opened;
}

/** Throws TranscriptTrouble when the scope's transcript is no regular file, or gone after `offset` bytes were read (a wait for its lines would be in vain). */
export function openOrTrouble(ref: ScopeRef, offset: number): void {
  open(ref, offset)?.source.close();
}

/** Why the scope's transcript cannot be read, or undefined when it can (or is not made yet). */
export function transcriptTroubleOf(ref: ScopeRef, offset: number): string | undefined {
  try {
    openOrTrouble(ref, offset);
    return undefined;
  } catch (error) {
    if (error instanceof TranscriptTrouble) return error.message;
    throw error;
  }
}

/**
 * What the scope's transcript holds since the hooks last looked: forward
 * from the stored offset only. A first look at a main transcript, or a look
 * at another file in its place or one shorter than the offset (it changed
 * under the plugin, SPEC §10), reads back from the end to the current task's
 * start only, never the whole file: to the oldest prompt a UserPromptSubmit
 * vouched for and no line has matched yet (a switch typed in a turn that was
 * interrupted is still applied, issue 18), or with none vouched, the last
 * line that looks typed.
 */
export function readNewLines(scope: ScopeState, ref: ScopeRef, vouched: readonly string[]): NewLines {
  const opened = open(ref, scope.offset);
  if (!opened) return { events: [], nextOffset: scope.offset };
  const { source, id } = opened;
  try {
    const replaced = scope.transcriptId !== undefined && scope.transcriptId !== id;
    if (ref.kind === "main" && (scope.offset === 0 || scope.offset > source.size || replaced))
      return { events: backToTaskStart(source, ref, vouched), nextOffset: source.size, transcriptId: id };
    const from = scope.offset > source.size || replaced ? 0 : scope.offset;
    const read = readEventsFrom(source, from);
    return { events: read.events.filter((event) => keepsLine(event, { lines: ref.lines })), nextOffset: read.nextOffset, transcriptId: id };
  } finally {
    source.close();
  }
}

function backToTaskStart(source: OpenedTranscript["source"], ref: ScopeRef, vouched: readonly string[]): TranscriptEvent[] {
  const waiting = new Set(vouched);
  const newest: TranscriptEvent[] = [];
  for (const event of readEventsBackward(source)) {
    if (!keepsLine(event, { lines: ref.lines })) continue;
    newest.push(event);
    if (!isPrompt(event)) continue;
    const key = promptKey(event.kind === "user_text" ? event.promptId : undefined);
    if (vouched.length === 0) break;
    waiting.delete(key);
    if (waiting.size === 0) break;
  }
  return newest.reverse();
}
