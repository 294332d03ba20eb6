import type { CommandSpec } from "./command-spec.js";
import { SCORE } from "./commands/score.js";
import { SELECT } from "./commands/select.js";
import { CHECK } from "./commands/check.js";
import { STATUS } from "./commands/status.js";
import { REPLAY } from "./commands/replay.js";
import { REPORT } from "./commands/report.js";
import { LOG } from "./commands/log.js";
import { STATUSLINE } from "./commands/statusline.js";
import { PRUNE } from "./commands/prune.js";
import { EXPORT } from "./commands/export.js";

/** Every subcommand people use, in the order the help lists them (`command`, behind /utility, is apart). */
export const COMMANDS: CommandSpec[] = [SCORE, SELECT, CHECK, STATUS, LOG, REPORT, REPLAY, STATUSLINE, PRUNE, EXPORT];
