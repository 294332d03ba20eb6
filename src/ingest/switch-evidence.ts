// What the transcript shows after a pending `/utility off` (src/engine/session/switch-off.ts). Pure.

/** How Claude Code 2.1.328 starts the line it writes when a UserPromptExpansion hook blocks a typed command (docs/claude-code-facts.md). */
export const BLOCKED_EXPANSION = "UserPromptExpansion operation blocked by hook:\n";

/** `shown`: Claude Code's line of the blocked command, with the plugin's answer; `unshown`: another line came first; undefined: nothing yet. */
export type OffShown = "shown" | "unshown" | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Claude Code's `timestamp`: ISO 8601 in UTC with milliseconds, so that two compare as strings. */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A line Claude Code made before the answer (its `timestamp`, before
 * `since`) and wrote after it: the end of the turn before the command,
 * flushed late (Claude Code flushes every 100 ms, and runs a command typed
 * during a turn as soon as the turn ends). Read past it.
 */
function madeBefore(line: Record<string, unknown>, since: string | undefined): boolean {
  const made = line.timestamp;
  return since !== undefined && typeof made === "string" && ISO.test(made) && ISO.test(since) && made < since;
}

/**
 * One transcript line after the answer, oldest first: the evidence it gives,
 * or undefined to read on. `answer` is how the plugin's answer begins. Only a
 * line Claude Code writes of a blocked command counts; a user or assistant
 * line (a prompt, a tool result, the model's turn) before it means that no
 * typed command was blocked there (unless made before the answer, `since`,
 * as Claude Code writes a time). Other lines (queue, mode, cost,
 * attachments, other system lines) are read past; one that is no JSON
 * object (too long to read, torn) counts against.
 */
export function offEvidenceOf(line: unknown, answer: string, since?: string): OffShown {
  if (!isRecord(line)) return "unshown";
  if (line.type === "user" || line.type === "assistant") return madeBefore(line, since) ? undefined : "unshown";
  if (line.type !== "system" || line.subtype !== "informational" || typeof line.content !== "string") return undefined;
  if (!line.content.startsWith(BLOCKED_EXPANSION)) return undefined;
  const blocked = line.content.slice(BLOCKED_EXPANSION.length);
  return blocked.startsWith(answer) && TYPED_OFF.test(blocked) ? "shown" : "unshown";
}

/**
 * How Claude Code ends that line when the answer keeps the original prompt:
 * the command the user typed, as it resolved it. A hook riding another
 * slash command gets that command here, whatever its answer says.
 */
export const TYPED_OFF = /\n\nOriginal prompt: \/utility(?::utility)?[ \t]+off[ \t]*$/i;
