// What `/utility <argument>` answers (SPEC §9), as text: the status, the
// session report, or the switch and the status. Pure. The UserPromptExpansion
// hook shows it to the user with no model turn (the switch already applied);
// `utility command`, behind the skill's shell line, gives it to the model
// when that hook did not answer.
import { renderReportText } from "./report-text.js";
import { renderStatus, type SessionView } from "./status-text.js";

/** What `/utility` takes: no argument (the model scores the situation) or one of these. */
export const COMMAND_ARGUMENTS = ["status", "report", "on", "off"] as const;
export type CommandArgument = (typeof COMMAND_ARGUMENTS)[number];

/** The argument as typed: its first word, in lower case ("" for none); anything else is `unknown`. */
export function readCommandArgument(args: string): { argument: CommandArgument | ""; unknown?: string } {
  const word = args.trim().split(/\s+/)[0]!.toLowerCase();
  if (word === "") return { argument: "" };
  return (COMMAND_ARGUMENTS as readonly string[]).includes(word)
    ? { argument: word as CommandArgument }
    : { argument: "", unknown: args.trim() };
}

export function usageAnswer(got: string): string {
  return `utility: /utility takes no argument or one of ${COMMAND_ARGUMENTS.join(", ")}; got "${got}".\n`;
}

export function reportAnswer(sessionId: string, view: SessionView | undefined): string {
  return view && view.records.length > 0
    ? renderReportText(view.records)
    : `utility: no step of session ${sessionId} has been logged yet.\n`;
}

/** How the answer to `/utility off` begins: the line Claude Code writes of it is the evidence the switch waits for (src/engine/session/switch-off.ts). */
export const OFF_SAID =
  "utility: the /utility on gate is off. Skills that opt in with utility_gated: true still gate the task that activated them.";

/** The answer once the switch has taken effect (the hook applied it before answering; `off`, as it will be once Claude Code shows the answer). */
export function switchedAnswer(now: "on" | "off", sessionId: string, view: SessionView | undefined): string {
  const said =
    now === "on"
      ? "utility: the gate is on for this conversation's main scope until /utility off: every tool call needs an action report first, written in the same message."
      : OFF_SAID;
  return `${said}\n${renderStatus(sessionId, view)}`;
}

/**
 * The answer for the model, when the hook did not answer (its server was not
 * reachable): a switch asked for through this path takes effect as the hooks
 * see the prompt (`on` at once, `off` once its line is written).
 */
export function modelPathAnswer(argument: CommandArgument | "", sessionId: string, view: SessionView | undefined): string {
  switch (argument) {
    case "":
    case "status":
      return renderStatus(sessionId, view);
    case "report":
      return reportAnswer(sessionId, view);
    case "on":
      return `The utility gate is on for the main scope of this session until /utility off: every tool call needs an action report first, in the same message.\n${renderStatus(sessionId, view)}`;
    case "off":
      return `${view?.state?.manualGate ? "/utility off is asked: the gate stays on until Claude Code has written this prompt, and is off from the next tool call." : "The /utility on gate is off."} Skills that opt in with utility_gated: true still gate the task that activated them.\n${renderStatus(sessionId, view)}`;
  }
}
