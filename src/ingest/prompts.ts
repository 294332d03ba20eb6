// What a prompt is to the session machine: its key, whether it is one of the
// plugin's own commands, and the switch it asks for. Pure. The hooks read it
// from UserPromptSubmit's `prompt`, replay from the prompt's transcript line.
import { sha256Hex } from "../engine/sha256.js";
import type { Switch } from "../engine/session/state.js";

/**
 * The key a prompt is vouched under: a digest of its prompt id, never the id
 * itself. The state and the log are files a model's shell can read; were the
 * id in them, a shell job could append a line that claims the id before
 * Claude Code writes the prompt's own (SPEC §2). Versions without prompt ids
 * write none on the line either; their prompt is matched by the empty key.
 */
export function promptKey(promptId: string | null | undefined): string {
  return typeof promptId === "string" && promptId !== "" ? sha256Hex(`utility prompt ${promptId}`).slice(0, 32) : "";
}

/** `/utility on`, `/utility:utility off`: the plugin's switch, as the user types it. */
const SWITCH = /^\s*\/(?:utility:)?utility\s+(on|off)\b/i;
/** Any `/utility …` prompt: a question about the current task, not a new one. */
const OWN_COMMAND = /^\s*\/(?:utility:)?utility(?:\s|$)/i;
const SLASH_COMMAND = /^\s*\//;

/** What the machine needs to know of a prompt's text. */
export interface PromptText {
  own: boolean;
  switch?: Switch;
  /** A slash command: it may activate a skill, whose lines come after the prompt's. */
  slash: boolean;
}

export function readPrompt(text: string | undefined): PromptText {
  const prompt = text ?? "";
  const match = SWITCH.exec(prompt);
  return {
    own: OWN_COMMAND.test(prompt),
    slash: SLASH_COMMAND.test(prompt),
    ...(match ? { switch: match[1]!.toLowerCase() as Switch } : {}),
  };
}

const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;

/**
 * The prompt as typed, from its transcript line: Claude Code writes a typed
 * slash command as `<command-message>…<command-name>/utility</command-name>
 * <command-args>status</command-args>` (docs/claude-code-facts.md). Replay
 * has only the line; the hooks have UserPromptSubmit's `prompt`.
 */
export function typedText(lineText: string): string {
  const name = COMMAND_NAME.exec(lineText)?.[1];
  if (name === undefined || !name.startsWith("/")) return lineText;
  const args = COMMAND_ARGS.exec(lineText)?.[1]?.trim() ?? "";
  return args === "" ? name : `${name} ${args}`;
}
