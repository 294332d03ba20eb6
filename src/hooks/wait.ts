import { transcriptSize } from "../transcript/source.js";
import { findGoverningText, type GoverningText } from "../transcript/queries.js";
import { readEventsBackward } from "../transcript/reverse-reader.js";
import { keepsLine } from "../transcript/line-filter.js";
import type { ScopeRef } from "./scope.js";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export interface WaitOptions {
  timeoutMs: number;
  intervalMs: number;
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
    Atomics.wait(sleeper, 0, 0, options.intervalMs);
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
  return pollTranscript(ref.transcript, (size) => (size >= 0 ? findGoverningText(ref.transcript, toolUseId, { lines: ref.lines }) : absent), (r) => r.found, options);
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
export function waitForFinalMessage(ref: ScopeRef, finalText: string, options: WaitOptions = { timeoutMs: 1500, intervalMs: 5 }): boolean {
  return pollTranscript(ref.transcript, () => transcriptHoldsFinal(ref, finalText), (held) => held, options);
}
