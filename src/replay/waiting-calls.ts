// When replay decides a call it has read: the moment Claude Code would have
// run the call's PreToolUse hook (see decideWaiting). Calls wait here from
// their line until then.
import { DELEGATE_TOOLS, isReadOnlyTool } from "../engine/tools.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { ScopeRun, ToolUseBlock } from "./scope-run.js";

/** A call that may start a subagent: a delegating tool, or a Skill (a forked skill runs in one). */
const launches = (tool: string) => (DELEGATE_TOOLS as readonly string[]).includes(tool) || tool === "Skill";
/** Where a call was written, and the text that governs it. */
export interface WaitingAt {
  line: number;
  texts: string;
  messageId: string;
  model?: string;
}

export class WaitingCalls {
  /** `decide`: what deciding one call does (the hooks' PreToolUse, replayed). */
  constructor(private readonly decide: (run: ScopeRun, block: ToolUseBlock, at: WaitingAt) => void) {}

  /** Calls written but not yet decided, in order, each with its batch (see decideWaiting). */
  private waiting: Array<{ run: ScopeRun; block: ToolUseBlock; at: WaitingAt; batch: number }> = [];
  private batches = 0;

  has(toolUseId: string): boolean {
    return this.waiting.some((w) => w.block.id === toolUseId);
  }

  /** Consecutive read-only calls of one message run together (their hooks first); any other call runs alone. */
  wait(run: ScopeRun, block: ToolUseBlock, at: WaitingAt): void {
    const last = this.waiting.at(-1);
    const together =
      last !== undefined &&
      last.run === run &&
      last.at.messageId === at.messageId &&
      isReadOnlyTool(last.block.name) &&
      isReadOnlyTool(block.name);
    this.waiting.push({ run, block, at, batch: together ? last.batch : ++this.batches });
  }

  /**
   * Replay's timing model of Claude Code (docs/claude-code-facts.md): a
   * message's lines are all written before any call runs; its calls run
   * batch by batch (read-only calls together, others alone), each batch's
   * PreToolUse hooks seeing every line written before the batch's first
   * result (a skill an earlier call loaded included). So a batch is decided
   * at its first result; the batch of a call that may launch a subagent at
   * that subagent's first line (see decideLauncher); and every batch of a scope at
   * its next message, prompt or compaction, or at the end.
   */
  decideWaiting(event?: LocatedEvent, run?: ScopeRun): void {
    if (this.waiting.length === 0) return; // most lines: no call is waiting
    for (const scope of new Set(this.waiting.map((w) => w.run))) {
      const upTo = this.decidedBy(scope, event, run);
      if (upTo !== undefined) this.decideUpTo(scope, upTo);
    }
  }

  /**
   * A subagent's first line: the call that launched it ran its PreToolUse
   * before it started (SubagentStart), so the earliest waiting call that can
   * launch one is decided first.
   */
  decideLauncher(): void {
    const launcher = this.waiting.find((w) => launches(w.block.name));
    if (launcher) this.decideUpTo(launcher.run, launcher.batch);
  }

  private decideUpTo(scope: ScopeRun, upTo: number): void {
    const now = this.waiting.filter((w) => w.run === scope && w.batch <= upTo);
    this.waiting = this.waiting.filter((w) => !now.includes(w));
    for (const { block, at } of now) this.decide(scope, block, at);
  }

  /** The last of `scope`'s waiting batches that `event` (a line of scope `run`) makes Claude Code decide, or undefined for none. */
  private decidedBy(scope: ScopeRun, event: LocatedEvent | undefined, run: ScopeRun | undefined): number | undefined {
    const mine = this.waiting.filter((w) => w.run === scope);
    const first = mine[0]!;
    if (event === undefined) return Number.POSITIVE_INFINITY;
    if (event.kind === "tool_result") return mine.find((w) => w.block.id === event.toolUseId)?.batch;
    // Another scope's line decides nothing here (a new subagent's first line: see decideLauncher).
    if (run !== scope) return undefined;
    if (event.kind === "assistant" && event.messageId === first.at.messageId) return undefined;
    if (event.kind === "user_text" && event.isMeta) return undefined;
    return Number.POSITIVE_INFINITY;
  }
}
