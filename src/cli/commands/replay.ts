/**
 * `utility replay TRANSCRIPT… [--gated] [--json]`: the redundancy rule and,
 * with --gated, the gate (default config) over recorded sessions, offline.
 * A session file brings the subagent files Claude Code wrote beside it.
 * A file in which no line is a transcript line is said so, and exits 1.
 */
import { ReplayInputError, replayFiles } from "../../replay/files.js";
import { renderReplayText } from "../../replay/render.js";
import type { ReplayReport } from "../../replay/types.js";
import type { CommandSpec } from "../commands.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";

function replay(paths: string[], gated: boolean, cwd: string): ReplayReport {
  try {
    return replayFiles(paths, { gated, cwd });
  } catch (error) {
    if (error instanceof ReplayInputError) throw new UsageError(error.message);
    throw error;
  }
}

function runReplay({ values, positionals }: Parsed, io: CliIo): number {
  const report = replay(positionals, values.gated === true, io.cwd);
  const empty = report.files.filter((file) => file.lines === 0);
  if (values.json) printJson(io, report);
  else if (empty.length < report.files.length) io.stdout(renderReplayText(report));
  for (const file of empty)
    io.stderr(`utility replay: ${file.path} holds no Claude Code transcript: none of its lines is a transcript line.\n`);
  return empty.length > 0 ? 1 : 0;
}

export const REPLAY: CommandSpec = {
  name: "replay",
  summary: "exact repeats per scope (and, with --gated, what the gate would refuse) in recorded sessions",
  usage: "TRANSCRIPT.jsonl... [--gated] [--json]",
  arguments: ["<transcripts...>", "Claude Code session files (.jsonl); subagent files beside them are read too"],
  options: [
    ["--gated", "also run the gate with the default configuration"],
    ["--json", "print JSON"],
  ],
  run: runReplay,
};
