// The transcript evidence a `/utility off` waits for (src/engine/session/switch-off.ts): where the session's own
// transcript ends when the hook answers, and what Claude Code wrote after that answer.
import { basename, dirname, resolve } from "node:path";
import { configDir, type Env } from "../claude/places.js";
import type { SessionEvent } from "../engine/session/events.js";
import type { SessionState } from "../engine/session/state.js";
import { offEvidenceOf } from "../ingest/switch-evidence.js";
import { OFF_SAID } from "../summary/command-answer.js";
import { readLinesForward } from "../transcript/forward-reader.js";
import { openTranscript, type OpenedTranscript } from "../transcript/source.js";

/** A line longer than this is no blocked command's line: it is not read into memory, and counts against. */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * The session's own transcript, where Claude Code keeps it:
 * `<config>/projects/<folder>/<session id>.jsonl`. Any other path is
 * undefined: a hook call anyone registered may name any file.
 */
export function ownTranscript(path: string, sessionId: string, env: Env): string | undefined {
  const full = resolve(path);
  if (basename(full) !== `${sessionId}.jsonl`) return undefined;
  return dirname(dirname(full)) === resolve(configDir(env), "projects") ? full : undefined;
}

/** Where the session's own transcript ends now, and which file it is; undefined when the path is not its own or cannot be read. */
export function transcriptEnd(path: string, sessionId: string, env: Env): { after: number; transcriptId?: string } | undefined {
  const own = ownTranscript(path, sessionId, env);
  if (own === undefined) return undefined;
  let opened: OpenedTranscript | undefined;
  try {
    opened = openTranscript(own);
  } catch {
    return undefined;
  }
  if (!opened) return { after: 0 };
  try {
    return { after: opened.source.size, transcriptId: opened.id };
  } finally {
    opened.source.close();
  }
}

const unshown: SessionEvent = { kind: "off_evidence", shown: false };

/** What the session's transcript shows after a pending `/utility off`, as an event; none while nothing tells yet. */
export function offEvidenceEvents(session: SessionState, path: string, env: Env): SessionEvent[] {
  const pending = session.pendingOff;
  if (!pending) return [];
  const own = ownTranscript(path, session.sessionId, env);
  if (own === undefined) return [];
  let opened: OpenedTranscript | undefined;
  try {
    opened = openTranscript(own);
  } catch {
    return [unshown];
  }
  if (!opened) return [];
  try {
    const replaced = (pending.transcriptId !== undefined && opened.id !== pending.transcriptId) || opened.source.size < pending.after;
    return replaced ? [unshown] : readEvidence(opened, pending.after, pending.at);
  } finally {
    opened.source.close();
  }
}

function readEvidence(opened: OpenedTranscript, after: number, since: number | undefined): SessionEvent[] {
  for (const line of readLinesForward(opened.source, after, { maxLineBytes: MAX_LINE_BYTES })) {
    if (!line.terminated) break;
    const shown = offEvidenceOf(parsed(line.bytes), OFF_SAID, since === undefined ? undefined : new Date(since).toISOString());
    if (shown) return [{ kind: "off_evidence", shown: shown === "shown" }];
  }
  return [];
}

function parsed(bytes: Uint8Array | null): unknown {
  if (bytes === null) return null;
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    return null;
  }
}
