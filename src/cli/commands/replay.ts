/**
 * `utility replay TRANSCRIPT… [--gated] [--json]`: the redundancy rule and,
 * with --gated, the gate (default config) over recorded sessions, offline.
 * A session file brings the subagent files Claude Code wrote beside it.
 */
import { ReplayInputError, replayFiles } from "../../replay/files.js";
import { renderReplayText } from "../../replay/render.js";
import { parseCommandArgs } from "../args.js";
import { UsageError, type CliIo } from "../io.js";

export const REPLAY_USAGE = "utility replay TRANSCRIPT.jsonl… [--gated] [--json]";

const OPTIONS = {
  gated: { type: "boolean" },
  json: { type: "boolean" },
} as const;

export function runReplay(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, REPLAY_USAGE);
  if (positionals.length === 0) throw new UsageError(`replay takes one or more transcript files. Usage: ${REPLAY_USAGE}`);
  let report;
  try {
    report = replayFiles(positionals, { gated: values.gated === true, cwd: io.cwd });
  } catch (error) {
    if (error instanceof ReplayInputError) throw new UsageError(error.message);
    throw error;
  }
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderReplayText(report));
  return 0;
}
