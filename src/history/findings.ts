// What a history keeps of one replayed session (./report.ts adds it up): its
// tasks, and its scopes' exact repeats, identical outcomes and stuck loops. Small, plain
// data: it may come from a worker thread.
import type { PriceTable } from "../engine/prices.js";
import type { EventsReplay } from "../replay/types.js";
import { identicalTasksOf, stuckLoopsOf, tasksOfSession, type SessionPlace, type StuckRow, type TaskRow } from "./tasks.js";

/** What one scope adds to the history's repeats: each repeat with the task it counts toward. */
export interface ScopeFindings {
  /** A subagent's: the task it was launched in. */
  rootTask?: number;
  repeats: Array<{ tool: string; tokens: number; task: number }>;
  /** The task each identical outcome counts toward. */
  identical: number[];
  /** Its stuck loops (SPEC §13), each with the task it counts toward. */
  stuck: StuckRow[];
}

/** What a history keeps of one replayed session: its tasks and its scopes' repeats (small, and plain data: it may come from a worker thread). */
export interface SessionFindings {
  place: SessionPlace;
  files: { count: number; bytes: number };
  rows: TaskRow[];
  scopes: ScopeFindings[];
}

/** A session's findings from its replay: the session machine's figures, nothing counted again. */
export function sessionFindings(
  replay: EventsReplay,
  place: SessionPlace,
  files: SessionFindings["files"],
  prices: PriceTable,
): SessionFindings {
  return {
    place,
    files,
    rows: tasksOfSession(replay, place, prices),
    scopes: replay.scopes.map((scope) => {
      const rootTask = scope.scope === "main" ? undefined : scope.rootTask;
      return {
        ...(rootTask !== undefined ? { rootTask } : {}),
        repeats: scope.repeats.map((r) => ({ tool: r.tool, tokens: r.tokens, task: rootTask ?? r.repeat.task })),
        identical: identicalTasksOf(scope, replay.tasks[0]?.task ?? 1),
        stuck: stuckLoopsOf(scope, replay.tasks[0]?.task ?? 1),
      };
    }),
  };
}
