import { PRE_TOOL_USE_DEADLINE_MS } from "../engine/defaults.js";

/**
 * When a hook must have decided, on an injected millisecond clock. A timer
 * cannot interrupt synchronous code (the transcript waits sleep with
 * Atomics.wait), so every wait and retry loop asks the deadline itself.
 */
export interface Deadline {
  /** The whole allowance, for messages. */
  readonly limitMs: number;
  /** Milliseconds left before the hook must have decided (negative once past). */
  remainingMs(): number;
  /** How long a wait may still take: what is left, less the time kept for deciding afterwards. */
  waitBudgetMs(): number;
  /** Throws DeadlineError once the wait budget is spent. */
  check(doing: string): void;
}

/** Time kept after the last wait for the rest of the decision: the lock, the state, the log, the output. */
export const DECISION_RESERVE_MS = 1000;

export class DeadlineError extends Error {
  constructor(limitMs: number, doing: string) {
    super(`the hook reached its ${limitMs} ms deadline while ${doing}`);
  }
}

/** A deadline `limitMs` after `startedMs`, both on the clock `now`. */
export function deadlineAt(now: () => number, startedMs: number, limitMs: number = PRE_TOOL_USE_DEADLINE_MS): Deadline {
  const deadline: Deadline = {
    limitMs,
    remainingMs: () => startedMs + limitMs - now(),
    waitBudgetMs: () => deadline.remainingMs() - DECISION_RESERVE_MS,
    check: (doing) => {
      if (deadline.waitBudgetMs() <= 0) throw new DeadlineError(limitMs, doing);
    },
  };
  return deadline;
}
