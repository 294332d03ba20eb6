import type { CliIo, Parsed } from "./io.js";
import { SCORE } from "./commands/score.js";
import { SELECT } from "./commands/select.js";
import { CHECK } from "./commands/check.js";
import { STATUS } from "./commands/status.js";
import { REPLAY } from "./commands/replay.js";
import { REPORT } from "./commands/report.js";
import { LOG } from "./commands/log.js";
import { STATUSLINE } from "./commands/statusline.js";
import { PRUNE } from "./commands/prune.js";

/** One subcommand: how it is called (commander flags) and what it does with what was parsed. */
export interface CommandSpec {
  name: string;
  summary: string;
  /** What follows `utility <name>` in the usage line. */
  usage: string;
  /** Commander's operand syntax and its description, e.g. ["<paths...>", "…"]. */
  arguments?: [string, string];
  options: Array<[flags: string, description: string]>;
  run(parsed: Parsed, io: CliIo): number | Promise<number>;
}

/** Every subcommand people use, in the order the help lists them (`command`, behind /utility, is apart). */
export const COMMANDS: CommandSpec[] = [SCORE, SELECT, CHECK, STATUS, LOG, REPORT, REPLAY, STATUSLINE, PRUNE];
