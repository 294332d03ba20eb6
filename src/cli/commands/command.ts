import { renderReportText } from "../../summary/summarize.js";
import type { CliIo } from "../io.js";
import { loadSession, renderStatus, type SessionView } from "./status.js";

/**
 * What the `/utility` command's shell injection runs:
 * `utility command '<ARGUMENTS>' --session <id>`. It always exits 0 and
 * prints its trouble as text: a non-zero exit would abort the whole slash
 * command before the model reads anything.
 */

export type Renderer = (sessionId: string, view: SessionView | undefined) => string;

const RENDERERS: Record<string, Renderer> = {
  "": renderStatus,
  status: renderStatus,
  report: (id, view) =>
    view && view.records.length > 0 ? renderReportText(view.records) : `utility: no step of session ${id} has been logged yet.\n`,
  on: (id, view) =>
    `The utility gate is on for the main scope of this session until /utility off: every tool call needs an action report first, in the same message.\n${renderStatus(id, view)}`,
  off: (id, view) =>
    `${view?.state?.manualGate ? "/utility off is asked: the gate stays on until Claude Code has written this prompt, and is off from the next tool call." : "The /utility on gate is off."} Skills that opt in with utility_gated: true still gate the task that activated them.\n${renderStatus(id, view)}`,
};

function parse(args: string[]): { argument: string; sessionId: string | undefined } {
  const at = args.indexOf("--session");
  const sessionId = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  return { argument: rest.join(" ").trim().toLowerCase(), sessionId };
}

export function runCommand(args: string[], io: CliIo): number {
  const { argument, sessionId } = parse(args);
  const render = RENDERERS[argument.split(/\s+/)[0] ?? ""];
  if (!sessionId) {
    io.stdout("utility: no session id was given (the command passes --session ${CLAUDE_SESSION_ID}).\n");
    return 0;
  }
  if (!render) {
    io.stdout(`utility: /utility takes no argument or one of ${Object.keys(RENDERERS).filter(Boolean).join(", ")}; got "${argument}".\n`);
    return 0;
  }
  try {
    io.stdout(render(sessionId, loadSession(io.env, sessionId)));
  } catch (error) {
    io.stdout(`utility: ${(error as Error).message.split("\n")[0]}\n`);
  }
  return 0;
}
