/**
 * `utility statusline`: one line for Claude Code's status line (SPEC §9),
 * from the JSON Claude Code hands a `statusLine` command on stdin. The
 * settings line that installs it uses dist/statusline.js, the same code
 * without the CLI around it (it starts faster).
 */
import { runStatusLine } from "../../statusline/run.js";
import type { CommandSpec } from "../command-spec.js";
import type { CliIo, Parsed } from "../io.js";

function run(_parsed: Parsed, io: CliIo): number {
  const result = runStatusLine(io.readStdin(), io.env);
  io.stdout(`${result.line}\n`);
  if (result.code !== 0) io.stderr(`${result.line}\n`);
  return result.code;
}

export const STATUSLINE: CommandSpec = {
  name: "statusline",
  summary: "one line for Claude Code's status line: task, step, spend against budgets, gate, last action (JSON on stdin)",
  usage: "< statusLine JSON",
  options: [],
  run,
};
