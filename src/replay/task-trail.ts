// The main scope's tasks as replay sees them start, each with what its tree
// had spent before every call its budgets were checked on (EventsReplay.tasks),
// and each subagent's own spend before each of its calls, what the per-agent
// caps are checked on (EventsReplay.agentTrails).
import type { ScopeKey } from "../engine/session/events.js";
import { scopeAt } from "../engine/session/reduce.js";
import type { SessionState } from "../engine/session/state.js";
import { rootSpendOf, rootTaskOf } from "../engine/session/views.js";
import { estimateCostUsd, type PriceTable } from "../engine/prices.js";
import { totalTokens, type Spend } from "../engine/spend.js";
import { typedText } from "../ingest/prompts.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { SpentBefore, TaskReplay } from "./types.js";

/** How much of a task's prompt is kept (to name the task). */
const PROMPT_KEPT = 240;

/** What a call's budgets were checked against: its root task's spend, and a subagent's own. */
export interface SpentNote {
  rootTask: number;
  root: SpentBefore;
  own?: SpentBefore;
}

export class TaskTrail {
  readonly tasks: TaskReplay[] = [];
  /** By scope id: a subagent's own spend before each of its calls a cap could refuse. */
  readonly agents: Record<string, SpentBefore[]> = {};

  constructor(private readonly prices: PriceTable) {}

  /** A main-scope line that started a task (a typed prompt, or the first line of a resumed session): the task is named by its prompt. */
  noteTask(session: SessionState, event: LocatedEvent, line: number): void {
    const task = session.main.task;
    if (task === 0 || this.tasks.at(-1)?.task === task) return;
    const prompt = event.kind === "user_text" && event.isPrompt ? typedText(event.text).slice(0, PROMPT_KEPT) : undefined;
    this.tasks.push({
      task,
      line,
      ...(prompt !== undefined ? { prompt } : {}),
      ...(event.timestamp !== undefined ? { startedAt: event.timestamp } : {}),
      trail: [],
    });
  }

  /**
   * What the task at the root of `key`'s tree has spent before a call: what
   * its budgets are checked against (SPEC §12); and a subagent's own spend,
   * what its per-agent caps are checked against (SPEC §16). Kept by note.
   */
  spentBefore(session: SessionState, key: ScopeKey): SpentNote {
    const own = key === "main" ? undefined : scopeAt(session, key).spend;
    const rootTask = rootTaskOf(session, key);
    return {
      rootTask,
      root: this.spentOf(rootSpendOf(session, key)),
      ...(key === "main" ? {} : { own: own ? this.spentOf(own) : { tokens: 0, costUsd: 0, calls: 0 } }),
    };
  }

  /** A decided call's spentBefore, kept in its task's trail and its subagent's. */
  note(spent: SpentNote, scopeId: string): void {
    if (spent.own) (this.agents[scopeId] ??= []).push(spent.own);
    let task: TaskReplay | undefined;
    for (let i = this.tasks.length - 1; i >= 0 && task === undefined; i--) if (this.tasks[i]!.task === spent.rootTask) task = this.tasks[i];
    task?.trail.push(spent.root);
  }

  private spentOf(spend: Spend): SpentBefore {
    return { tokens: totalTokens(spend.tokens), costUsd: estimateCostUsd(spend.byModel, this.prices), calls: spend.toolCalls };
  }
}
