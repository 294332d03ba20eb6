// The session a forked one came from (src/engine/session/fork-origin.ts): found by the lines Claude Code copied.
import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { listDir } from "../claude/places.js";
import type { SessionEvent } from "../engine/session/events.js";
import type { SessionState } from "../engine/session/state.js";
import { loggedSwitches } from "../state/log-file.js";
import { isSafeId, sessionLogPath } from "../state/paths.js";
import { readLinesForward } from "../transcript/forward-reader.js";
import { openTranscript } from "../transcript/source.js";
import type { HookContext } from "./context.js";
import { ownTranscript } from "./switch-evidence.js";

/** How much of a transcript's start is read for the ids of its lines. */
const HEAD_BYTES = 1024 * 1024;
/** How much of another transcript's start is read for its first id. */
const FIRST_BYTES = 64 * 1024;

/**
 * For a session that started as a fork and whose origin is not known yet:
 * once its transcript holds the copied lines, the session whose transcript
 * (in the same project folder) begins with the same lines and shares most of
 * them, and whether `/utility on` was in force there (its state, else its
 * log). None while the copied lines are not written yet; `-` when no other
 * transcript has them.
 */
export function forkOriginEvents(session: SessionState, transcript: string, ctx: HookContext): SessionEvent[] {
  if (session.forkedFrom !== "") return [];
  const own = ownTranscript(transcript, session.sessionId, ctx.env);
  if (own === undefined) return [];
  const ids = lineIds(own, HEAD_BYTES);
  if (ids.length === 0) return [];
  const from = originOf(own, ids);
  return [{ kind: "fork_origin", from: from ?? "-", gated: from !== undefined && switchedOn(from, ctx) }];
}

/** The `uuid`s of the lines in the first `limit` bytes of a transcript, in order. */
function lineIds(path: string, limit: number, firstOnly = false): string[] {
  let opened;
  try {
    opened = openTranscript(path);
  } catch {
    return [];
  }
  if (!opened) return [];
  const ids: string[] = [];
  try {
    for (const line of readLinesForward(opened.source, 0, { maxLineBytes: limit })) {
      if (line.offset >= limit || !line.terminated) break;
      const id = uuidOf(line.bytes);
      if (id !== undefined) ids.push(id);
      if (firstOnly && ids.length > 0) break;
    }
  } finally {
    opened.source.close();
  }
  return ids;
}

function uuidOf(bytes: Uint8Array | null): string | undefined {
  if (bytes === null) return undefined;
  try {
    const line: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
    const id = line !== null && typeof line === "object" ? (line as { uuid?: unknown }).uuid : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The other transcript that begins as this one does and shares most of its lines (a fork of a fork shares its root's too); the newest on a tie. */
function originOf(own: string, ids: string[]): string | undefined {
  const folder = dirname(own);
  const mine = new Set(ids);
  let best: { id: string; shared: number; mtime: number } | undefined;
  for (const name of listDir(folder)) {
    const id = name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : undefined;
    if (id === undefined || name === basename(own) || !isSafeId(id)) continue;
    const path = join(folder, name);
    if (lineIds(path, FIRST_BYTES, true)[0] !== ids[0]) continue;
    const shared = lineIds(path, HEAD_BYTES).filter((u) => mine.has(u)).length;
    const mtime = mtimeOf(path);
    if (!best || shared > best.shared || (shared === best.shared && mtime > best.mtime)) best = { id, shared, mtime };
  }
  return best?.id;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether `/utility on` is in force in that session: its state, else the last switch its log applied. */
function switchedOn(sessionId: string, ctx: HookContext): boolean {
  try {
    const state = ctx.store.read(sessionId);
    if (state) return state.manualGate;
  } catch {
    // an unreadable state: the log says what was applied
  }
  return loggedSwitches(sessionLogPath(ctx.dataDir, sessionId)).applied === "on";
}
