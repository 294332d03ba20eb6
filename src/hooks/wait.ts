import { transcriptSize } from "../transcript/source.js";
import { findGoverningText, newestModel, type GoverningText } from "../transcript/queries.js";
import { readEventsBackward } from "../transcript/reverse-reader.js";
import { isPrompt, keepsLine } from "../transcript/line-filter.js";
import type { Deadline } from "./deadline.js";
import type { ScopeRef } from "./scope.js";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export interface WaitOptions {
  timeoutMs: number;
  intervalMs: number;
  /** The hook's own deadline: a wait that would pass it throws DeadlineError instead of returning. */
  deadline?: Deadline;
  /** What the wait is for, in the deadline's message. */
  doing?: string;
}

/** Claude Code flushes transcript lines every 100 ms; under load it can take longer. */
export const DEFAULT_WAIT: WaitOptions = { timeoutMs: 3000, intervalMs: 5 };

/**
 * Calls `check` at the start and each time the transcript's size changes,
 * until `done` says so or the time is up; returns the last value.
 */
function pollTranscript<T>(path: string, check: (size: number) => T, done: (value: T) => boolean, options: WaitOptions): T {
  const started = Date.now();
  let lastSize = -2; // no size: the first round always checks
  let value: T | undefined;
  for (;;) {
    const size = transcriptSize(path);
    if (size !== lastSize) {
      lastSize = size;
      value = check(size);
      if (done(value)) return value;
    }
    if (Date.now() - started >= options.timeoutMs) return value!;
    options.deadline?.check(options.doing ?? "waiting for the transcript");
    Atomics.wait(sleeper, 0, 0, Math.max(1, Math.min(options.intervalMs, options.deadline?.waitBudgetMs() ?? options.intervalMs)));
  }
}

/**
 * The text governing a call, waiting for Claude Code to write the call's line:
 * when PreToolUse starts, the assistant message being decided is usually not
 * in the transcript yet (docs/claude-code-facts.md). Re-reads only when the
 * file has grown.
 */
export function waitForGoverningText(ref: ScopeRef, toolUseId: string, options: WaitOptions = DEFAULT_WAIT): GoverningText {
  const absent: GoverningText = { found: false, reason: "absent" };
  return pollTranscript(
    ref.transcript,
    (size) => (size >= 0 ? findGoverningText(ref.transcript, toolUseId, { lines: ref.lines }) : absent),
    (r) => r.found,
    { doing: "waiting for the call's line in the transcript", ...options },
  );
}

/** Does the scope's newest assistant line hold (part of) the final message? Then every line before it is written too. */
export function transcriptHoldsFinal(ref: ScopeRef, finalText: string): boolean {
  const wanted = finalText.trim();
  if (transcriptSize(ref.transcript) < 0) return false;
  try {
    for (const event of readEventsBackward(ref.transcript)) {
      if (event.kind !== "assistant" || !keepsLine(event, { lines: ref.lines })) continue;
      const texts = event.blocks.flatMap((b) => (b.type === "text" && b.text.trim() !== "" ? [b.text.trim()] : []));
      return texts.some((t) => wanted.includes(t));
    }
  } catch {
    // unreadable now: not caught up
  }
  return false;
}

/**
 * Waits (bounded) until the scope's transcript holds the final message a Stop
 * hook was given: a skill activated just before may not be written yet when
 * the model stops at once (Claude Code flushes its transcript every 100 ms).
 */
export const FINAL_WAIT: WaitOptions = { timeoutMs: 1500, intervalMs: 5 };

export function waitForFinalMessage(ref: ScopeRef, finalText: string, options: WaitOptions = FINAL_WAIT): boolean {
  return pollTranscript(
    ref.transcript,
    () => transcriptHoldsFinal(ref, finalText),
    (held) => held,
    options,
  );
}

/**
 * Every text block of the scope's last assistant message, in order: all the
 * lines sharing its message.id (SPEC §4), not only the last text Claude Code
 * hands a Stop hook. Undefined when the transcript has none or cannot be read.
 */
export function finalMessageTexts(ref: ScopeRef): string[] | undefined {
  if (transcriptSize(ref.transcript) < 0) return undefined;
  const texts: string[][] = [];
  let messageId: string | undefined;
  try {
    for (const event of readEventsBackward(ref.transcript)) {
      if (!keepsLine(event, { lines: ref.lines })) continue;
      if (isPrompt(event) || event.kind === "compact") break;
      if (event.kind !== "assistant") continue;
      if (messageId !== undefined && event.messageId !== messageId) break;
      messageId = event.messageId;
      texts.push(event.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    }
  } catch {
    return undefined;
  }
  return messageId === undefined ? undefined : texts.reverse().flat();
}

/** Claude Code flushes its transcript every 100 ms: the line of the call that started a subagent is there within a few. */
export const PARENT_WAIT: WaitOptions = { timeoutMs: 1000, intervalMs: 5 };

/**
 * How long a main transcript that does not exist yet is waited for: its file
 * is made at the first flush, 100 ms after the session's first line is
 * queued (docs/claude-code-facts.md), later on a loaded machine; a session
 * that keeps no transcript never makes it.
 */
export const TRANSCRIPT_FILE_WAIT_MS = 500;

/**
 * The main conversation's newest model, waiting (bounded) for a line that
 * names one: a subagent started by the session's first message may start
 * before Claude Code has written that message, or made the file at all.
 */
export function waitForNewestModel(mainTranscript: string, options: WaitOptions = PARENT_WAIT): string | undefined {
  const started = Date.now();
  const made = pollTranscript(
    mainTranscript,
    (size) => size >= 0,
    (exists) => exists,
    { doing: "waiting for the main transcript's file", ...options, timeoutMs: Math.min(options.timeoutMs, TRANSCRIPT_FILE_WAIT_MS) },
  );
  if (!made) return undefined;
  return pollTranscript(
    mainTranscript,
    () => newestModelOrNone(mainTranscript),
    (model) => model !== undefined,
    {
      doing: "waiting for the parent's message in the transcript",
      ...options,
      timeoutMs: Math.max(0, options.timeoutMs - (Date.now() - started)),
    },
  );
}

function newestModelOrNone(mainTranscript: string): string | undefined {
  try {
    return newestModel(mainTranscript, { lines: "main" });
  } catch {
    return undefined; // unreadable now: no model, never fatal
  }
}
