import type { CommandHandler } from "./io.js";
import { runScore } from "./commands/score.js";
import { runSelect } from "./commands/select.js";
import { runCheck } from "./commands/check.js";
import { runCommand } from "./commands/command.js";
import { runStatus } from "./commands/status.js";
import { runReplay } from "./commands/replay.js";
import { runReport } from "./commands/report.js";
import { runLog } from "./commands/log.js";

/** Every subcommand of the `utility` CLI. */
export const COMMANDS: Record<string, CommandHandler> = {
  score: runScore,
  select: runSelect,
  check: runCheck,
  status: runStatus,
  command: runCommand,
  replay: runReplay,
  report: runReport,
  log: runLog,
};

export const HELP = `utility: score agent actions with U(a) = Gain − λ1·StepCost − λ2·Uncertainty − λ3·Redundancy

Commands:
  score   --gain N --step-cost N --uncertainty N --redundancy N [--lambdas a,b,c] [--action A] [--json]
          print the action report for four signals
  select  FILE|- [--scope S] [--step N] [--max-steps N] [--floor N] [--json]
          a candidate table (JSON or a long report) -> a*, every U, the termination verdict
  check   PATH... [--json]
          validate the opt-in frontmatter of skills and agents (a file or a folder)
  status  --session ID [--json]
          a session's scopes: task, step, budget, gating, last report
  command [status|report|on|off] --session ID
          what the /utility command shows (always exits 0)
  replay  TRANSCRIPT.jsonl... [--gated] [--json]
          exact repeats per scope (and, with --gated, what the gate would refuse) in recorded sessions
  report  [SESSION|FILE.jsonl] [--json | --html FILE]
          a session's steps by action, refusals, overrides, repeats, budget per scope (default: the latest session)
  log     [SESSION|FILE.jsonl] [--json]
          a session's step-log records as a table
`;
