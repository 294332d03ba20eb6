import { expect } from "vitest";

/**
 * What a PreToolUse hook prints when it decides nothing: nothing at all, or,
 * for a call that passed the gate, only the `utility:` line as
 * additionalContext (issue 15). Never a permissionDecision, never "allow".
 */
export const NO_DECISION = expect.stringMatching(
  /^(?:|\{"hookSpecificOutput":\{"hookEventName":"PreToolUse","additionalContext":"utility: [^"\\]*"\}\}\n?)$/,
);
