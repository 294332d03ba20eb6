// The main scope's tasks as replay sees them start, each with what its tree
// had spent before every call its budgets were checked on (EventsReplay.tasks).
import type { ScopeKey } from "../engine/session/events.js";
import type { SessionState } from "../engine/session/state.js";
import { rootSpendOf, rootTaskOf } from "../engine/session/views.js";
import { estimateCostUsd, type PriceTable } from "../engine/prices.js";
import { totalTokens } from "../engine/spend.js";
import { typedText } from "../ingest/prompts.js";
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import type { TaskReplay } from "./types.js";

/** How much of a task's prompt is kept (to name the task). */
const PROMPT_KEPT = 240;

export class TaskTrail {
  readonly tasks: TaskReplay[] = [];

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

  /** What the task at the root of `key`'s tree has spent before a call: what its budgets are checked against (SPEC §12). */
  noteSpentBefore(session: SessionState, key: ScopeKey): void {
    const rootTask = rootTaskOf(session, key);
    let task: TaskReplay | undefined;
    for (let i = this.tasks.length - 1; i >= 0 && task === undefined; i--) if (this.tasks[i]!.task === rootTask) task = this.tasks[i];
    if (!task) return;
    const spent = rootSpendOf(session, key);
    task.trail.push({ tokens: totalTokens(spent.tokens), costUsd: estimateCostUsd(spent.byModel, this.prices) });
  }
}
