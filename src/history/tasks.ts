// One replayed session → its tasks, each with what its whole tree spent (the
// main scope's task and every subagent launched in it, as the session
// machine counted them: replay's taskSpend per scope), and who spent it.
// Pure: the replay is handed in; nothing here reads a file or counts spend
// another way.
import { estimateCostUsd, type PriceTable } from "../engine/prices.js";
import { sumSpend, totalTokens, zeroSpend, type Spend, type TokenCounts } from "../engine/spend.js";
import { launchesFrom } from "../engine/session/views.js";
import type { EventsReplay } from "../replay/types.js";
import type { ScopeReplay, SpentBefore, TaskReplay } from "../replay/types.js";

/** Where a session's files are. */
export interface SessionPlace {
  /** The session id (its file's name without .jsonl). */
  session: string;
  /** The project folder under ~/.claude/projects it was found in (its name), if any. */
  project?: string;
  /** The session file. */
  path: string;
}

/** A subagent of a task, named so a person knows which. */
export interface SubagentRow {
  /** `agent:<id>`, or `sidechain:<n>` (Claude Code 1.0 wrote no agent id). */
  id: string;
  /** Its type (Explore, general-purpose, …), when the launching call or the machine says. */
  type?: string;
  /** What it was asked: the launching call's description, else the start of its first prompt. */
  asked?: string;
  /** Its place among the task's subagents, as agent budgets count them (1 for the first). */
  ordinal?: number;
  /** What it spent by itself (its own scope's, SPEC §16), and its tool calls that ran. */
  tokens: number;
  costUsd: number;
  calls: number;
  /** Its own spend before each of its calls a cap could refuse (replay's agentTrails), for what a per-agent cap would have saved. */
  trail: SpentBefore[];
}

export interface TaskRow {
  place: SessionPlace;
  task: number;
  /** The start of the prompt that began it; absent for a resumed session's first task. */
  prompt?: string;
  startedAt?: string;
  /** All four usage counts of the task's tree, each message once. */
  tokens: number;
  tokenCounts: TokenCounts;
  byModel: Record<string, TokenCounts>;
  costUsd: number;
  /** Tool calls that ran (steps), the tree's. */
  calls: number;
  /** Subagents launched, as `utility_max_agents` counts them. */
  agents: number;
  subagents: SubagentRow[];
  /** Exact repeats (SPEC §7) in the task's tree, and their results' estimated tokens. */
  repeats: number;
  repeatTokens: number;
  /** Identical outcomes (SPEC §13) in the tree. */
  identicalOutcomes: number;
  /** The task's spend before each call a budget could refuse (replay's trail), for what a budget would have saved. */
  trail: TaskReplay["trail"];
}

/** The task each of a scope's identical outcomes (SPEC §13) counts toward: a subagent's, the task it was launched in. */
export function identicalTasksOf(scope: ScopeReplay, firstTask: number): number[] {
  const root = scope.scope === "main" ? undefined : (scope.rootTask ?? firstTask);
  return scope.identicalOutcomes.map((found) => root ?? found.call.task);
}

/** A stuck loop (SPEC §13) as a history keeps it: the call's tool, the task it counts toward, how many runs returned one result before it, and whether the gate refused it. */
export interface StuckRow {
  tool: string;
  task: number;
  runs: number;
  refused: boolean;
}

/** A scope's stuck loops, each toward its task: a subagent's, the task it was launched in. */
export function stuckLoopsOf(scope: ScopeReplay, firstTask: number): StuckRow[] {
  const root = scope.scope === "main" ? undefined : (scope.rootTask ?? firstTask);
  return scope.stuckLoops.map((found) => ({
    tool: found.tool,
    task: root ?? found.call.task,
    runs: found.runs.length,
    refused: found.refused,
  }));
}

const WORDS_KEPT = 80;

/** The first words of a text on one line, cut at a word with an ellipsis when longer than `max` characters. */
export function firstWords(text: string, max = WORDS_KEPT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

function subagentRow(scope: ScopeReplay, replay: EventsReplay, prices: PriceTable): SubagentRow {
  const spend = scope.spend ?? zeroSpend();
  const type = scope.spawnedBy?.subagentType ?? scope.agentType;
  const asked = scope.spawnedBy?.description ?? replay.prompts[scope.id];
  return {
    id: scope.id,
    ...(type !== undefined ? { type } : {}),
    ...(asked !== undefined && asked.trim() !== "" ? { asked: firstWords(asked) } : {}),
    ...(scope.ordinal !== undefined ? { ordinal: scope.ordinal } : {}),
    tokens: totalTokens(spend.tokens),
    costUsd: estimateCostUsd(spend.byModel, prices),
    calls: spend.toolCalls,
    trail: replay.agentTrails[scope.id] ?? [],
  };
}

interface TaskParts {
  spends: Spend[];
  subagents: ScopeReplay[];
  repeats: number;
  repeatTokens: number;
  identical: number;
}

/**
 * The session's tasks, each with its tree's spend. A subagent counts toward
 * the task it was launched in (SPEC §12). Every task the main scope started
 * is a row, and so is a task only a subagent spent in (a session whose first
 * lines are a subagent's).
 */
export function tasksOfSession(replay: EventsReplay, place: SessionPlace, prices: PriceTable): TaskRow[] {
  const parts = new Map<number, TaskParts>();
  const partOf = (task: number): TaskParts => {
    let part = parts.get(task);
    if (!part) parts.set(task, (part = { spends: [], subagents: [], repeats: 0, repeatTokens: 0, identical: 0 }));
    return part;
  };
  for (const task of replay.tasks) partOf(task.task);
  const firstTask = replay.tasks[0]?.task ?? 1;
  for (const scope of replay.scopes) {
    if (scope.scope === "main") addMain(scope, partOf);
    else addSubagent(scope, partOf(scope.rootTask ?? firstTask));
    for (const task of identicalTasksOf(scope, firstTask)) partOf(task).identical += 1;
  }
  const started = new Map(replay.tasks.map((t) => [t.task, t]));
  const context = { place, replay, prices };
  return [...parts.entries()].sort(([a], [b]) => a - b).map(([task, part]) => rowOf(task, part, started.get(task), context));
}

function addMain(scope: ScopeReplay, partOf: (task: number) => TaskParts): void {
  for (const { task, spend } of scope.taskSpend) partOf(task).spends.push(spend);
  for (const r of scope.repeats) {
    const part = partOf(r.repeat.task);
    part.repeats += 1;
    part.repeatTokens += r.tokens;
  }
}

function addSubagent(scope: ScopeReplay, part: TaskParts): void {
  if (scope.spend) part.spends.push(scope.spend);
  part.subagents.push(scope);
  part.repeats += scope.repeats.length;
  part.repeatTokens += scope.repeatTokens;
}

function rowOf(
  task: number,
  part: TaskParts,
  info: TaskReplay | undefined,
  { place, replay, prices }: { place: SessionPlace; replay: EventsReplay; prices: PriceTable },
): TaskRow {
  const spend = sumSpend(part.spends);
  return {
    place,
    task,
    ...(info?.prompt !== undefined ? { prompt: firstWords(info.prompt) } : {}),
    ...(info?.startedAt !== undefined ? { startedAt: info.startedAt } : {}),
    tokens: totalTokens(spend.tokens),
    tokenCounts: spend.tokens,
    byModel: spend.byModel,
    costUsd: estimateCostUsd(spend.byModel, prices),
    calls: spend.toolCalls,
    agents: launchesFrom(spend.agentsLaunched, part.subagents.length),
    subagents: part.subagents.map((scope) => subagentRow(scope, replay, prices)),
    repeats: part.repeats,
    repeatTokens: part.repeatTokens,
    identicalOutcomes: part.identical,
    trail: info?.trail ?? [],
  };
}
