/**
 * A gated session for the hostile-model tests: a skill that opts in, activated
 * after the user's prompt, and one assistant message whose text is whatever
 * the model wrote before its call. Each call runs the bundled PreToolUse as a
 * real process, the way Claude Code does.
 */
import {
  hookInput,
  line,
  nearDeadlineContext,
  runEntry,
  runInProcessAsProc,
  skillFolder,
  text,
  use,
  type Proc,
  type Sandbox,
} from "../support.js";

export interface Decision {
  proc: Proc;
  denied: boolean;
  reason: string;
}

let counter = 0;

export function decisionOf(proc: Proc): Decision {
  const out = proc.stdout
    ? (JSON.parse(proc.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } })
    : undefined;
  const h = out?.hookSpecificOutput;
  return { proc, denied: h?.permissionDecision === "deny", reason: h?.permissionDecisionReason ?? "" };
}

export interface CallOptions {
  /** The model's text before the call, in the same message. */
  before: string;
  tool?: string;
  gated?: boolean;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Leave the call's own line out of the transcript (Claude Code never writes it). */
  lineMissing?: boolean;
  /** Run the hook in this process, its own deadline this far away (see nearDeadlineContext), instead of as a process. */
  deadlineInMs?: number;
}

/** A fresh session in `box` whose main scope made one call after `before`; runs PreToolUse on it. */
export async function callAfter(box: Sandbox, options: CallOptions): Promise<Decision & { session: string; transcript: string }> {
  const session = `hostile-${process.pid}-${++counter}`;
  const folder = skillFolder(box, `gated-${counter}`, options.gated === false ? "" : "utility_gated: true");
  const blocks = [
    text(options.before),
    ...(options.lineMissing ? [] : [use("toolu_h1", options.tool ?? "Bash", { command: "echo hostile" })]),
  ];
  const transcript = box.transcript(`${session}.jsonl`, [
    line.prompt("fix the test"),
    line.skill(folder),
    ...line.assistant(`msg_${counter}`, blocks),
  ]);
  const input = hookInput(
    "pre-tool-use",
    { session, transcript, cwd: box.project },
    { tool_name: options.tool ?? "Bash", tool_input: { command: "echo hostile" }, tool_use_id: "toolu_h1" },
  );
  const proc =
    options.deadlineInMs !== undefined
      ? await runInProcessAsProc("pre-tool-use", JSON.stringify(input), box.env(options.env), nearDeadlineContext(options.deadlineInMs))
      : await runEntry("pre-tool-use", JSON.stringify(input), box.env(options.env), { timeoutMs: options.timeoutMs ?? 60_000 });
  return { ...decisionOf(proc), session, transcript };
}
