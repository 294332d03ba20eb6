/**
 * A simulated Claude Code session for the one-truth property (SPEC §15):
 * it writes transcript lines in the order Claude Code 2.1.328 writes them
 * (docs/claude-code-facts.md) and runs the real hook handlers at the moments
 * Claude Code runs them, against a real data folder. Afterwards replay reads
 * the same transcripts. A session is plain data (SimSession), so fast-check
 * can generate and shrink it.
 */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { processContext, type HookContext } from "../../src/hooks/context.js";
import { preCompact } from "../../src/hooks/pre-compact.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { sessionEnd } from "../../src/hooks/session-end.js";
import { stopHook } from "../../src/hooks/stop.js";
import { subagentStart } from "../../src/hooks/subagent-start.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { waitForFinalMessage, waitForGoverningText } from "../../src/hooks/wait.js";
import { scratchDir } from "../support/scratch.js";

export type Outcome = "ran" | "error" | "denied";
export type ReportKind =
  | "none"
  | "tool_call"
  | "retrieve"
  | "verify"
  | "delegate"
  | "wrong_utility"
  | "malformed"
  | "respond"
  /** tool_call with Uncertainty 0.9: asks the user where the threshold is at or below it (SPEC §14). */
  | "unsure"
  /** verify with Redundancy 0.9: a stuck loop's next run passes under the gate (SPEC §13). */
  | "redundant";

export type SimCall =
  | { tool: "Read"; path: string; outcome: Outcome; result: string }
  | { tool: "Bash"; command: string; outcome: Outcome; result: string; background?: boolean }
  | { tool: "Write"; path: string; outcome: Outcome }
  | { tool: "TodoWrite" }
  | { tool: "Skill"; skill: SkillName }
  | { tool: "Agent"; messages: SimMessage[] };

export interface SimMessage {
  report: ReportKind;
  calls: SimCall[];
  tokens: { input: number; output: number; cacheCreation: number; cacheRead: number };
}

export type SimPrompt =
  | { kind: "typed"; text: string }
  | { kind: "slash"; command: "/utility"; args: "on" | "off" | "status" | "report" }
  | { kind: "notification" }
  | { kind: "wakeup"; text: string };

export interface SimTurn {
  prompt: SimPrompt;
  messages: SimMessage[];
  final: SimMessage["tokens"];
  compactAfter: boolean;
}

export interface SimSession {
  turns: SimTurn[];
  /** The user's token budget per task (CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET), if any. */
  tokenBudget?: number;
  /** The user's token budget for the whole session (CLAUDE_PLUGIN_OPTION_SESSION_TOKEN_BUDGET), if any. */
  sessionTokenBudget?: number;
  /** The user's `stuck_after` (SPEC §13), if set. */
  stuckAfter?: number;
  /** The user's `confirm_above_uncertainty` (SPEC §14), if set. */
  confirmAbove?: number;
  /** What the user answers when Claude Code asks (SPEC §14): yes runs the call; no refuses it, as `-p` does. */
  askAnswer?: "yes" | "no";
}

export const SKILLS = {
  strict: "---\nname: strict\ndescription: gated, two steps\nutility_gated: true\nutility_max_steps: 2\n---\nBody.\n",
  gated: "---\nname: gated\ndescription: gated, defaults\nutility_gated: true\n---\nBody.\n",
  plain: "---\nname: plain\ndescription: not gated\n---\nBody.\n",
} as const;
export type SkillName = keyof typeof SKILLS;

const REPORTS: Record<Exclude<ReportKind, "none">, string> = {
  tool_call: 'Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Run it."',
  retrieve: 'Action: retrieve\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Read it."',
  verify: 'Action: verify\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Check it."',
  delegate: 'Action: delegate\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Hand it on."',
  wrong_utility: 'Action: tool_call\nUtility: 0.9\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Off."',
  malformed: "Action: tool_call\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12\nRationale: half",
  respond: 'Action: respond\nUtility: 0.28\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0\nRationale: "Answer."',
  unsure: 'Action: tool_call\nUtility: 0.13\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.9 Redundancy=0.0\nRationale: "Not sure."',
  redundant:
    'Action: verify\nUtility: -0.44\nBreakdown: Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.9\nRationale: "Same again, on purpose."',
};

/** What the hooks decided for a call, as their PreToolUse record says. */
export interface HookDecision {
  decision: string;
  rule?: string;
}

export interface SimRun {
  home: string;
  cwd: string;
  data: string;
  sessionId: string;
  transcript: string;
  env: Record<string, string>;
  /** tool_use_ids the PreToolUse hook refused. */
  denied: Set<string>;
  /** Every token the session's messages reported, each message once at its final counts: what a scripted model sent. */
  sent: number;
  cleanup(): void;
}

/** A session's files and clock, and the hooks run against them. */
class Simulator {
  private clock = Date.parse("2026-12-01T10:00:00.000Z");
  /** The last background job launched: a notification names it (its end). */
  private background = "bg_none";
  private ids = 0;
  /** The transcript folders made so far (a subagent's is made with its first line). */
  private readonly folders = new Set<string>();
  readonly run: SimRun;

  constructor(readonly session: SimSession) {
    const home = realpathSync(mkdtempSync(join(scratchDir(), "utility-sim-")));
    const cwd = join(home, "project");
    const sessionId = "sim-session";
    const transcript = join(home, ".claude", "projects", "-project", `${sessionId}.jsonl`);
    mkdirSync(dirname(transcript), { recursive: true });
    for (const [name, body] of Object.entries(SKILLS)) {
      mkdirSync(join(cwd, ".claude", "skills", name), { recursive: true });
      writeFileSync(join(cwd, ".claude", "skills", name, "SKILL.md"), body);
      // Written before the session, as a user's skills are: none changed after a prompt began (src/skills/classify.ts).
      utimesSync(join(cwd, ".claude", "skills", name, "SKILL.md"), 1e9, 1e9);
    }
    const data = join(home, "data");
    const env: Record<string, string> = { HOME: home, UTILITY_DATA_DIR: data, CLAUDE_PROJECT_DIR: cwd };
    if (session.tokenBudget !== undefined) env.CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET = String(session.tokenBudget);
    if (session.sessionTokenBudget !== undefined) env.CLAUDE_PLUGIN_OPTION_SESSION_TOKEN_BUDGET = String(session.sessionTokenBudget);
    if (session.stuckAfter !== undefined) env.CLAUDE_PLUGIN_OPTION_STUCK_AFTER = String(session.stuckAfter);
    if (session.confirmAbove !== undefined) env.CLAUDE_PLUGIN_OPTION_CONFIRM_ABOVE_UNCERTAINTY = String(session.confirmAbove);
    this.run = {
      home,
      cwd,
      data,
      sessionId,
      transcript,
      env,
      denied: new Set(),
      sent: 0,
      cleanup: () => rmSync(home, { recursive: true, force: true }),
    };
  }

  private id(prefix: string): string {
    return `${prefix}_${String(++this.ids).padStart(4, "0")}`;
  }

  private ctx(): HookContext {
    const ctx = processContext(this.run.env);
    return {
      ...ctx,
      waitForText: (ref, toolUseId) => waitForGoverningText(ref, toolUseId, { timeoutMs: 100, intervalMs: 2 }),
      waitForFinal: (ref, text) => waitForFinalMessage(ref, text, { timeoutMs: 100, intervalMs: 2 }),
    };
  }

  private base(agentId?: string) {
    return {
      session_id: this.run.sessionId,
      transcript_path: this.run.transcript,
      cwd: this.run.cwd,
      hook_event_name: "",
      ...(agentId ? { agent_id: agentId, agent_type: "general-purpose" } : {}),
    };
  }

  private file(agentId?: string): string {
    return agentId ? join(dirname(this.run.transcript), this.run.sessionId, "subagents", `agent-${agentId}.jsonl`) : this.run.transcript;
  }

  private write(line: Record<string, unknown>, agentId?: string): void {
    this.clock += 7;
    const file = this.file(agentId);
    if (!this.folders.has(dirname(file))) {
      mkdirSync(dirname(file), { recursive: true });
      this.folders.add(dirname(file));
    }
    const full = {
      parentUuid: null,
      isSidechain: agentId !== undefined,
      sessionId: this.run.sessionId,
      version: "2.1.328",
      uuid: this.id("uuid"),
      timestamp: new Date(this.clock).toISOString(),
      ...(agentId ? { agentId } : {}),
      ...line,
    };
    appendFileSync(file, `${JSON.stringify(full)}\n`);
  }

  async play(): Promise<void> {
    for (const turn of this.session.turns) await this.turn(turn);
    await sessionEnd({ ...this.base(), hook_event_name: "SessionEnd", reason: "other" }, this.ctx());
  }

  private async turn(turn: SimTurn): Promise<void> {
    const promptId = this.id("prompt");
    const text = promptText(turn.prompt, this.background);
    await userPromptSubmit({ ...this.base(), hook_event_name: "UserPromptSubmit", prompt_id: promptId, prompt: text }, this.ctx());
    this.write({ type: "user", promptId, ...promptLine(turn.prompt, text) });
    if (turn.prompt.kind === "slash")
      this.write({
        type: "user",
        promptId,
        isMeta: true,
        message: { role: "user", content: [{ type: "text", text: "The command's body." }] },
      });
    const last = await this.loop(turn.messages, undefined);
    const finalText = "All done.";
    this.write({ type: "assistant", message: message(this.id("msg"), [{ type: "text", text: finalText }], turn.final) });
    this.run.sent += total(turn.final);
    await stopHook(
      { ...this.base(), hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: last ?? finalText },
      this.ctx(),
      "Stop",
    );
    if (turn.compactAfter) {
      await preCompact({ ...this.base(), hook_event_name: "PreCompact", trigger: "manual" }, this.ctx());
      this.write({ type: "system", subtype: "compact_boundary", content: "Conversation compacted" });
      this.write({ type: "user", isCompactSummary: true, message: { role: "user", content: "Summary." } });
    }
  }

  /** A scope's messages: each message's lines, then each call's hook, run and result. */
  private async loop(messages: readonly SimMessage[], agentId: string | undefined): Promise<string | undefined> {
    for (const m of messages) {
      const messageId = this.id("msg");
      const blocks: Array<Record<string, unknown>> = [
        m.report === "none" ? { type: "thinking", thinking: "…", signature: "s" } : { type: "text", text: REPORTS[m.report] },
      ];
      const calls = m.calls.map((call) => ({ call, id: this.id("toolu") }));
      for (const { call, id } of calls) blocks.push({ type: "tool_use", id, name: call.tool, input: inputOf(call) });
      // One line per block, each with the message's usage (output growing, the last line final).
      this.run.sent += total(m.tokens);
      blocks.forEach((block, i) => {
        const output = i === blocks.length - 1 ? m.tokens.output : Math.floor(m.tokens.output / 2);
        this.write({ type: "assistant", message: message(messageId, [block], { ...m.tokens, output }) }, agentId);
      });
      // Consecutive Read calls run together (their hooks first, then their results); any other call runs alone.
      for (let i = 0; i < calls.length;) {
        let j = i + 1;
        if (calls[i]!.call.tool === "Read") while (j < calls.length && calls[j]!.call.tool === "Read") j++;
        const batch = calls.slice(i, j);
        const passed: typeof batch = [];
        for (const c of batch) if (await this.decide(c.call, c.id, agentId)) passed.push(c);
        for (const c of passed) await this.ran(c.call, c.id, agentId);
        i = j;
      }
    }
    return undefined;
  }

  /** The call's PreToolUse; a refusal's result is written at once. True when the call goes on. */
  private async decide(call: SimCall, id: string, agentId: string | undefined): Promise<boolean> {
    const ctx = this.ctx();
    const answer = await preToolUse(
      { ...this.base(agentId), hook_event_name: "PreToolUse", tool_name: call.tool, tool_input: inputOf(call), tool_use_id: id },
      ctx,
    );
    const deny = (answer.output as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } } | undefined)
      ?.hookSpecificOutput;
    if (deny?.permissionDecision === "deny") {
      this.run.denied.add(id);
      this.result(id, `PreToolUse:${call.tool} hook error: ${deny.permissionDecisionReason}`, true, agentId);
      return false;
    }
    if (deny?.permissionDecision === "ask" && this.session.askAnswer !== "yes") {
      // As `-p` answers an "ask" (docs/claude-code-facts.md): a refusal, written as the user's, with the reason.
      this.write(
        {
          type: "user",
          toolDenialKind: "user-rejected",
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: id, content: deny.permissionDecisionReason ?? "", is_error: true }],
          },
        },
        agentId,
      );
      return false;
    }
    return true;
  }

  private async ran(call: SimCall, id: string, agentId: string | undefined): Promise<void> {
    if (call.tool === "TodoWrite") return this.result(id, "Todos updated", false, agentId);
    if (call.tool === "Skill") {
      this.result(id, `Launching skill: ${call.skill}`, false, agentId);
      this.write(
        {
          type: "user",
          isMeta: true,
          message: {
            role: "user",
            content: [
              { type: "text", text: `Base directory for this skill: ${join(this.run.cwd, ".claude", "skills", call.skill)}\n\nBody.` },
            ],
          },
        },
        agentId,
      );
      return;
    }
    if (call.tool === "Agent") return this.agent(call, id, agentId);
    if (call.outcome === "denied") {
      this.write(
        {
          type: "user",
          toolDenialKind: "user-rejected",
          message: {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: id, content: "The user doesn't want to proceed with this tool use.", is_error: true },
            ],
          },
        },
        agentId,
      );
      return;
    }
    const text = call.tool === "Write" ? `Wrote ${call.path}` : call.result;
    this.result(
      id,
      call.tool === "Bash" && call.background ? `Command running in background with ID: bg_${id}.` : text,
      call.outcome === "error",
      agentId,
    );
  }

  private async agent(call: Extract<SimCall, { tool: "Agent" }>, id: string, parent: string | undefined): Promise<void> {
    const agentId = `a${String(++this.ids).padStart(6, "0")}`;
    await subagentStart(
      { ...this.base(agentId), hook_event_name: "SubagentStart", agent_id: agentId, agent_type: "general-purpose" },
      this.ctx(),
    );
    this.write({ type: "user", message: { role: "user", content: `SUBTASK ${id}` } }, agentId);
    await this.loop(call.messages, agentId);
    this.write(
      {
        type: "assistant",
        message: message(this.id("msg"), [{ type: "text", text: "Subagent done." }], {
          input: 3,
          output: 2,
          cacheCreation: 0,
          cacheRead: 0,
        }),
      },
      agentId,
    );
    this.run.sent += 5;
    await stopHook(
      { ...this.base(agentId), hook_event_name: "SubagentStop", stop_hook_active: false, last_assistant_message: "Subagent done." },
      this.ctx(),
      "SubagentStop",
    );
    this.result(id, "Subagent done.", false, parent);
  }

  private result(id: string, content: string, isError: boolean, agentId: string | undefined): void {
    this.write(
      {
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] },
      },
      agentId,
    );
  }
}

function total(tokens: SimMessage["tokens"]): number {
  return tokens.input + tokens.output + tokens.cacheCreation + tokens.cacheRead;
}

function message(id: string, content: unknown[], tokens: SimMessage["tokens"]) {
  return {
    id,
    model: "claude-opus-4-5-20251101",
    role: "assistant",
    content,
    usage: {
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      cache_creation_input_tokens: tokens.cacheCreation,
      cache_read_input_tokens: tokens.cacheRead,
    },
  };
}

function inputOf(call: SimCall): unknown {
  switch (call.tool) {
    case "Read":
      return { file_path: call.path };
    case "Bash":
      return { command: call.command, ...(call.background ? { run_in_background: true } : {}) };
    case "Write":
      return { file_path: call.path, content: "x" };
    case "TodoWrite":
      return { todos: [] };
    case "Skill":
      return { skill: call.skill };
    case "Agent":
      return { description: "help", prompt: "SUBTASK", subagent_type: "general-purpose", run_in_background: false };
  }
}

function promptText(prompt: SimPrompt, background: string): string {
  switch (prompt.kind) {
    case "typed":
    case "wakeup":
      return prompt.text;
    case "slash":
      return `${prompt.command} ${prompt.args}`;
    case "notification":
      return `<task-notification>\n<task-id>${background}</task-id>\n<status>completed</status>\n</task-notification>`;
  }
}

/** The prompt's own line, with the fields Claude Code writes on it (src/engine/session/prompt-kind.ts). */
function promptLine(prompt: SimPrompt, text: string): Record<string, unknown> {
  switch (prompt.kind) {
    case "typed":
      return { promptSource: "sdk", turnOrigin: "sdk", message: { role: "user", content: text } };
    case "slash":
      return {
        promptSource: "sdk",
        turnOrigin: "sdk",
        message: {
          role: "user",
          content: `<command-message>utility</command-message>\n<command-name>${prompt.command}</command-name>\n<command-args>${prompt.args}</command-args>`,
        },
      };
    case "notification":
      return {
        origin: { kind: "task-notification" },
        promptSource: "system",
        turnOrigin: "task_notification",
        message: { role: "user", content: text },
      };
    case "wakeup":
      return {
        isMeta: true,
        promptSource: "system",
        wakeupSource: "loop_wakeup",
        turnOrigin: "scheduled",
        message: { role: "user", content: text },
      };
  }
}

/** Plays a session: the transcripts and the data folder it leaves. */
export async function simulate(session: SimSession): Promise<SimRun> {
  const sim = new Simulator(session);
  await sim.play();
  return sim.run;
}
