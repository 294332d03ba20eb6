import { modelPathAnswer, readCommandArgument, usageAnswer } from "../../summary/command-answer.js";
import type { CliIo } from "../io.js";
import { loadSession } from "./status.js";

/**
 * What the `/utility` skill's shell line runs:
 * `utility command '<ARGUMENTS>' --session <id>`. Its output is what the model
 * reads: for `/utility` alone, the status it scores from; for an argument,
 * only when the UserPromptExpansion hook did not answer it first. It always
 * exits 0 and prints its trouble as text: a non-zero exit would abort the
 * whole slash command before the model reads anything.
 */

function parse(args: string[]): { text: string; sessionId: string | undefined } {
  const at = args.indexOf("--session");
  const sessionId = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  return { text: rest.join(" "), sessionId };
}

export function runCommand(args: string[], io: CliIo): number {
  const { text, sessionId } = parse(args);
  const read = readCommandArgument(text);
  if (!sessionId) {
    io.stdout("utility: no session id was given (the command passes --session ${CLAUDE_SESSION_ID}).\n");
    return 0;
  }
  if (read.unknown !== undefined) {
    io.stdout(usageAnswer(read.unknown));
    return 0;
  }
  try {
    io.stdout(modelPathAnswer(read.argument, sessionId, loadSession(io.env, sessionId)));
  } catch (error) {
    io.stdout(`utility: ${(error as Error).message.split("\n")[0]}\n`);
  }
  return 0;
}
