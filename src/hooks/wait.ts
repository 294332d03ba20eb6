import { transcriptSize } from "../transcript/source.js";
import { findGoverningText, type GoverningText } from "../transcript/queries.js";
import { readEventsBackward } from "../transcript/reverse-reader.js";
import { inScope } from "../transcript/scope.js";
import type { ScopeRef } from "./scope.js";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export interface WaitOptions {
  timeoutMs: number;
  intervalMs: number;
}

/** Claude Code flushes transcript lines every 100 ms; under load it can take longer. */
export const DEFAULT_WAIT: WaitOptions = { timeoutMs: 3000, intervalMs: 5 };

/**
 * The text governing a call, waiting for Claude Code to write the call's line:
 * when PreToolUse starts, the assistant message being decided is usually not
 * in the transcript yet (docs/claude-code-facts.md). Re-reads only when the
 * file has grown.
 */
export function waitForGoverningText(ref: ScopeRef, toolUseId: string, options: WaitOptions = DEFAULT_WAIT): GoverningText & { waitedMs: number } {
  const started = Date.now();
  let lastSize = -2;
  let result: GoverningText = { found: false, reason: "absent" };
  for (;;) {
    const size = transcriptSize(ref.transcript);
    if (size !== lastSize) {
      lastSize = size;
      if (size >= 0) result = findGoverningText(ref.transcript, toolUseId, { lines: ref.lines });
      if (result.found) return { ...result, waitedMs: Date.now() - started };
    }
    if (Date.now() - started >= options.timeoutMs) return { ...result, waitedMs: Date.now() - started };
    Atomics.wait(sleeper, 0, 0, options.intervalMs);
  }
}

/** Does the scope's newest assistant line hold (part of) the final message? Then every line before it is written too. */
export function transcriptHoldsFinal(ref: ScopeRef, finalText: string): boolean {
  const wanted = finalText.trim();
  if (transcriptSize(ref.transcript) < 0) return false;
  try {
    for (const event of readEventsBackward(ref.transcript)) {
      if (event.kind !== "assistant" || !inScope(event, { lines: ref.lines })) continue;
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
  const started = Date.now();
  let lastSize = -2;
  for (;;) {
    const size = transcriptSize(ref.transcript);
    if (size !== lastSize) {
      lastSize = size;
      if (transcriptHoldsFinal(ref, finalText)) return true;
    }
    if (Date.now() - started >= options.timeoutMs) return false;
    Atomics.wait(sleeper, 0, 0, options.intervalMs);
  }
}
