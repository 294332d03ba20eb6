import type { SessionEvent } from "./events.js";
import type { ScopeDraft } from "./state.js";

/**
 * The prompt's line and a slash command's skill lines are written after
 * UserPromptSubmit: the next call looks for them. A prompt that is no slash
 * command activates no skill: once its own line is written, nothing more is
 * awaited. Behind an activation still awaited, the wait stays whole.
 */
export function awaitPrompt(main: ScopeDraft, key: string, slash: boolean): void {
  const whole = slash || (main.awaitingActivation === true && main.awaitingPrompt === undefined);
  main.awaitingActivation = true;
  if (whole) delete main.awaitingPrompt;
  else main.awaitingPrompt = key;
}

/**
 * The main conversation runs as an agent definition (`claude --agent`, the
 * `agent` setting; Claude Code gives its hooks that type as `agent_type`,
 * docs/claude-code-facts.md): the definition gates it, as it gates a
 * subagent of that type, from its first call and in every task of the
 * session. A later type (a session resumed as another agent) replaces it:
 * Claude Code runs that one.
 */
export function mainAgent(main: ScopeDraft, event: Extract<SessionEvent, { kind: "main_agent" }>): void {
  main.agentType = event.agentType;
  if (event.definition) main.definition = event.definition;
  else delete main.definition;
}
