/**
 * The spend ledger's files (SPEC §12 "beyond one task"): what every session of
 * the user spent, and when, so that a rolling window can be counted across
 * sessions that run at once. Layout: `<data>/ledger/<UTC day>/<session>.jsonl`.
 * Each session appends only to its own file, whole lines on a file opened for
 * appending (./log-file.ts), under its own state lock; readers take every line
 * of the days the window touches. What a line means and how the window counts
 * overlapping lines once: src/engine/ledger.ts.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ledgerLine, LedgerLineSchema, spendInWindow, windowStart, type LedgerLine } from "../engine/ledger.js";
import { MAX_WINDOW_HOURS } from "../engine/defaults.js";
import { sessionSpend } from "../engine/session/views.js";
import type { SessionState } from "../engine/session/state.js";
import type { Spend } from "../engine/spend.js";
import { appendJsonLine } from "./log-file.js";
import { ensureRealFolder, isSafeId, safeId } from "./paths.js";
import type { StateStore, Transaction } from "./store.js";

const DAY_MS = 86_400_000;
/** Days of lines kept: the longest window, and a day more. */
export const LEDGER_KEEP_DAYS = Math.ceil(MAX_WINDOW_HOURS / 24) + 1;

export function ledgerDir(dataDir: string): string {
  return join(dataDir, "ledger");
}

/** `2026-12-01`: the UTC day of a time, the folder its lines go to. */
export function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

export function ledgerFile(dataDir: string, sessionId: string, t: number): string {
  return join(ledgerDir(dataDir), dayOf(t), `${safeId("session id", sessionId)}.jsonl`);
}

/** Appends a session's line to its file of the line's day. Both folders are checked: a link planted for either is never followed (SPEC §10). */
export function appendLedgerLine(dataDir: string, sessionId: string, line: LedgerLine): void {
  ensureRealFolder(ledgerDir(dataDir));
  appendJsonLine(ledgerFile(dataDir, sessionId, line.t), line);
}

/** A regular file's lines, never following a link; none when it cannot be read. */
function readLines(file: string): string[] {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      return fstatSync(fd).isFile() ? readFileSync(fd, "utf8").split("\n") : [];
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
}

function parseLine(text: string): LedgerLine | undefined {
  if (text === "") return undefined;
  try {
    const parsed = LedgerLineSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // a torn line: skipped
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every session's lines written on the days from `start` to `end`, by session id (a session that ran past midnight has two files). */
export function readLedger(dataDir: string, start: number, end: number): Map<string, LedgerLine[]> {
  const bySession = new Map<string, LedgerLine[]>();
  for (let day = Math.floor(start / DAY_MS) * DAY_MS; day <= end; day += DAY_MS) {
    const folder = join(ledgerDir(dataDir), dayOf(day));
    for (const name of listNames(folder)) {
      const sessionId = name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : "";
      if (!isSafeId(sessionId)) continue;
      const lines = bySession.get(sessionId) ?? [];
      for (const text of readLines(join(folder, name))) {
        const line = parseLine(text);
        if (line) lines.push(line);
      }
      bySession.set(sessionId, lines);
    }
  }
  return bySession;
}

/**
 * What every session of the user spent in the `hours` before `now`: the
 * ledger's lines, and `own` (this session's growth not written yet: the
 * transaction deciding the call writes it when it ends).
 */
export function windowSpend(dataDir: string, now: number, hours: number, own?: { sessionId: string; line: LedgerLine }): Spend {
  const start = windowStart(now, hours);
  const bySession = readLedger(dataDir, start, now);
  if (own) bySession.set(own.sessionId, [...(bySession.get(own.sessionId) ?? []), own.line]);
  return spendInWindow([...bySession.values()], start, now);
}

/** Removes the days older than LEDGER_KEEP_DAYS: no window reaches them. Best effort. */
export function pruneLedger(dataDir: string, now: number): void {
  const oldest = dayOf(now - LEDGER_KEEP_DAYS * DAY_MS);
  for (const day of listNames(ledgerDir(dataDir))) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(day) && day < oldest) rmSync(join(ledgerDir(dataDir), day), { recursive: true, force: true });
  }
}

/**
 * A state store whose every transaction that makes the session's measured
 * spend grow appends that stretch to the ledger, under the session's lock,
 * before the state is saved. Every hook changes the state through its store,
 * so no spend escapes the ledger; and a stretch written twice counts once
 * (a hook that dies after its line and before its state is saved leaves the
 * next hook to write the same stretch again). Trouble writing the ledger
 * never costs the hook its state: the line is skipped, and only that
 * stretch is missing from the window.
 */
export function withLedger(store: StateStore, dataDir: string, clock: () => Date): StateStore {
  return {
    read: (sessionId) => store.read(sessionId),
    transact: <T>(sessionId: string, change: (state: SessionState | undefined) => Transaction<T> | Promise<Transaction<T>>) =>
      store.transact<T>(sessionId, async (existing) => {
        const done = await change(existing);
        const line = ledgerLine(clock().getTime(), existing ? sessionSpend(existing) : undefined, sessionSpend(done.state));
        // Before the state, as the state's own write: after the answer when the transaction allows it.
        if (line) (done.later ?? run)(() => tryAppend(dataDir, sessionId, line));
        return done;
      }),
  };
}

const run = (work: () => void) => work();

function tryAppend(dataDir: string, sessionId: string, line: LedgerLine): void {
  try {
    appendLedgerLine(dataDir, sessionId, line);
  } catch {
    // The data folder refuses the write (a planted link, a full disk): the window misses this stretch, the hook goes on.
  }
}
