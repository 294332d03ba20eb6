// What a user line is, from the fields Claude Code writes on it, never from text the model controls (SPEC §2). Pure.
//
// Seen in 2.1.328 (docs/claude-code-facts.md, "Prompts nobody typed"):
// - typed in -p: promptSource "sdk", turnOrigin "sdk", no origin; typed in the TUI: origin.kind "human",
//   promptSource "typed", turnOrigin "human". Older versions write none of these fields.
// - a background Bash or Agent ending: origin.kind "task-notification", promptSource "system", turnOrigin "task_notification".
// - a ScheduleWakeup firing: isMeta, promptSource "system", wakeupSource "loop_wakeup", turnOrigin "scheduled".
// - Stop-hook feedback: isMeta, text "Stop hook feedback:\n…", no UserPromptSubmit.
// - a compaction summary: isCompactSummary.
// - `/compact` (-p): no UserPromptSubmit; a `<local-command-caveat>` meta line, then the command's own line
//   (`<command-name>/compact</command-name>`, no promptSource, no origin), sharing the summary's promptId.
// - older versions wrote a background task's end as a user line with no origin fields, text `<task-notification>…`.

/** What a user line is by its own fields, before asking whether a UserPromptSubmit vouched for it. */
export const LINE_KINDS = ["typed", "notification", "wakeup", "stop-feedback", "compaction", "command", "meta"] as const;
export type LineKind = (typeof LINE_KINDS)[number];

/** What a prompt is: a line kind, or `unvouched`: it looks typed but no UserPromptSubmit of its prompt id vouched for it. */
export const PROMPT_KINDS = [...LINE_KINDS, "unvouched"] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

/** The fields of a user line that tell who wrote it. */
export interface PromptFields {
  text: string;
  isMeta?: boolean | null | undefined;
  isCompactSummary?: boolean | null | undefined;
  originKind?: string | null | undefined;
  promptSource?: string | null | undefined;
  turnOrigin?: string | null | undefined;
  wakeupSource?: string | null | undefined;
}

/** Typed prompts carry these origins; any other origin is something Claude Code started itself. */
const TYPED_ORIGINS = new Set(["human"]);
const STOP_FEEDBACK_PREFIX = "Stop hook feedback:";
/** How a background task's end starts, whether it comes as a prompt (UserPromptSubmit) or as a user line. Claude Code writes it; a model cannot. */
export const NOTIFICATION_START = "<task-notification>";
/** What a local command's caveat line starts with: the command after it ran in Claude Code, not as a prompt to the model. */
const LOCAL_COMMAND_CAVEAT = "<local-command-caveat>";
/**
 * Claude Code's own commands that run without the model and without a
 * UserPromptSubmit (seen for `/compact` in 2.1.328): their line is no prompt.
 */
const LOCAL_COMMANDS = new Set(["/compact"]);
const COMMAND_NAME = /<command-name>\s*([^<\s]*)\s*<\/command-name>/;

// Markers Claude Code writes as user text that the user did not type as a prompt (no field marks them).
const SYNTHETIC_USER_TEXT = [
  "[Request interrupted by user",
  "<local-command-stdout>",
  "<local-command-stderr>",
  "<local-command-caveat>",
  "<bash-stdout>",
  "<bash-stderr>",
];

/**
 * The kind of a user line by what Claude Code wrote on it. Anything marked as
 * coming from the system (isMeta, promptSource "system", an origin other than
 * a human, a wakeup source) is not typed, whatever its text says. Text only
 * tells apart kinds that are all not typed (Stop feedback among meta lines)
 * and the markers that carry no field.
 */
export function lineKind(fields: PromptFields): LineKind {
  if (fields.isCompactSummary === true) return "compaction";
  return fieldKind(fields) ?? textKind(fields.text, !fields.originKind && !fields.promptSource && !fields.turnOrigin);
}

/** What the line's own fields say, when they say it was not typed. */
function fieldKind(fields: PromptFields): LineKind | undefined {
  if (fields.originKind === "task-notification" || fields.turnOrigin === "task_notification") return "notification";
  if (fields.wakeupSource || fields.turnOrigin === "scheduled") return "wakeup";
  if (fields.isMeta === true) return fields.text.trimStart().startsWith(STOP_FEEDBACK_PREFIX) ? "stop-feedback" : "meta";
  if (fields.promptSource === "system") return "meta";
  if (fields.originKind && !TYPED_ORIGINS.has(fields.originKind)) return "meta";
  return undefined;
}

/**
 * A line its fields do not mark: the markers Claude Code writes as user text
 * with no field, a local command's line, and (on a line with no origin field
 * at all, as older versions wrote it) a background task's end.
 */
function textKind(text: string, noOrigin: boolean): LineKind {
  if (noOrigin && isNotification(text)) return "notification";
  if (isLocalCommand(text)) return "command";
  const trimmed = text.trimStart();
  if (SYNTHETIC_USER_TEXT.some((marker) => trimmed.startsWith(marker))) return "meta";
  return "typed";
}

/** A prompt's or a user line's text is a background task's end (`<task-notification>…`). */
export function isNotification(text: string): boolean {
  return text.trimStart().startsWith(NOTIFICATION_START);
}

/** A line of one of Claude Code's own commands that ran with no UserPromptSubmit (`<command-name>/compact</command-name>`). */
export function isLocalCommand(text: string): boolean {
  if (!text.trimStart().startsWith("<command-")) return false;
  const name = COMMAND_NAME.exec(text)?.[1];
  return name !== undefined && LOCAL_COMMANDS.has(name);
}

/**
 * A line that marks its prompt id as a command Claude Code ran itself, not a
 * prompt: a compaction's summary, a local command's caveat. A line that
 * looks typed with the same prompt id is that command's own line.
 */
export function marksLocalCommand(kind: LineKind, text: string): boolean {
  return kind === "compaction" || (kind === "meta" && text.trimStart().startsWith(LOCAL_COMMAND_CAVEAT));
}

/**
 * The kind of a prompt line, given which prompt ids a UserPromptSubmit of the
 * hooks saw (and has not matched to a line yet). A line that looks typed
 * starts a task only when one vouched for its prompt id: a shell command can
 * append a user line to the transcript, but cannot make Claude Code run
 * UserPromptSubmit for it.
 */
export function classifyPrompt(kind: LineKind, promptId: string | undefined, vouched: (promptId: string) => boolean): PromptKind {
  if (kind !== "typed") return kind;
  return promptId !== undefined && vouched(promptId) ? "typed" : "unvouched";
}
