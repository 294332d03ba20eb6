import { statSync } from "node:fs";
import { findGoverningText, type GoverningText } from "../transcript/queries.js";
import type { ScopeRef } from "./scope.js";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
}

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
    const size = sizeOf(ref.transcript);
    if (size !== lastSize) {
      lastSize = size;
      if (size >= 0) result = findGoverningText(ref.transcript, toolUseId, { lines: ref.lines });
      if (result.found) return { ...result, waitedMs: Date.now() - started };
    }
    if (Date.now() - started >= options.timeoutMs) return { ...result, waitedMs: Date.now() - started };
    Atomics.wait(sleeper, 0, 0, options.intervalMs);
  }
}
