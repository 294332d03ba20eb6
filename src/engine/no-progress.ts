import type { CallEffect } from "./redundancy.js";
import { STUCK_REDUNDANCY } from "./defaults.js";

/**
 * Calls that told nothing (SPEC §13). An identical outcome: a call returned
 * byte for byte what the same call (same tool, same input) returned at its
 * last run in the scope since the last compaction, and was no exact repeat
 * (SPEC §7): something that could change it ran in between, or that run had
 * failed and this was a retry (an exact repeat's result was no news). A stuck loop: the last `after` runs of one call
 * all returned the same result, and it is about to run again. Only a digest
 * of each result is kept. Polls and planning tools are never either: polling
 * a running job is meant to return the same thing until it ends. Pure.
 */

/** A call that ran, as far as these rules need it (the scope's history holds them, oldest first). */
export interface RanResult {
  tool: string;
  digest: string;
  effect: CallEffect;
  /** Its step in its task. */
  at: number;
  /** That task (a scope's history outlives its tasks: repeats are per compaction). */
  task?: number;
  toolUseId?: string;
  /** The digest of its result; absent when none came back or it held more than text (an image). */
  result?: string;
}

const told = (effect: CallEffect) => effect.kind === "poll" || effect.kind === "neutral";

/** The latest earlier run of the same call, when this result is byte-identical to its result. */
export function identicalOutcomeOf(
  history: readonly RanResult[],
  call: { tool: string; digest: string; effect: CallEffect; result?: string },
): RanResult | undefined {
  if (told(call.effect) || call.result === undefined) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const earlier = history[i]!;
    if (earlier.tool === call.tool && earlier.digest === call.digest) return earlier.result === call.result ? earlier : undefined;
  }
  return undefined;
}

/**
 * The last `after` runs of this call, oldest first, when they all returned
 * the same result: running it again is a stuck loop. `after` 0: the rule is off.
 */
export function findStuckLoop(
  history: readonly RanResult[],
  call: { tool: string; digest: string; effect: CallEffect },
  after: number,
): RanResult[] | undefined {
  if (after < 1 || told(call.effect)) return undefined;
  const runs: RanResult[] = [];
  for (let i = history.length - 1; i >= 0 && runs.length < after; i--) {
    const earlier = history[i]!;
    if (earlier.tool === call.tool && earlier.digest === call.digest) runs.unshift(earlier);
  }
  if (runs.length < after) return undefined;
  const result = runs[0]!.result;
  return result !== undefined && runs.every((run) => run.result === result) ? runs : undefined;
}

/** A step, and where it is not in the task `current` the task it was in. */
export interface StepRef {
  at: number;
  task?: number | undefined;
}

/**
 * "steps 2, 4 and 6"; steps of an earlier task say which ("steps 3 and 4 of
 * task 7", "steps 9 (task 7) and 1"), so a number is never read as the
 * current task's (issue 34).
 */
export function describeSteps(steps: readonly (number | StepRef)[], current?: number): string {
  const refs = steps.map((s) => (typeof s === "number" ? { at: s } : s));
  const earlier = (r: StepRef) => current !== undefined && r.task !== undefined && r.task !== current;
  const tasks = new Set(refs.map((r) => r.task));
  if (tasks.size === 1 && earlier(refs[0]!)) return `${listed(refs.map((r) => String(r.at)))} of task ${refs[0]!.task}`;
  const parts = refs.map((r) => (earlier(r) ? `${r.at} (task ${r.task})` : String(r.at)));
  return listed(parts);
}

function listed(parts: string[]): string {
  const last = parts.at(-1);
  const head = parts.slice(0, -1);
  return `step${parts.length === 1 ? "" : "s"} ${head.length > 0 ? `${head.join(", ")} and ${last}` : last}`;
}

/**
 * What the next hook of the scope tells the model about an identical outcome; `of` the earlier run, with its task when that was another.
 * `retry`: that run had failed, so the call was a retry, not a run after something that could change it.
 */
export function identicalNotice(tool: string, at: number, of: StepRef, retry = false): string {
  const earlier = of.task !== undefined ? `step ${of.at} of task ${of.task}` : `step ${of.at}`;
  const why = retry ? "when that run failed: retrying it unchanged" : "although something that could change it ran in between: it";
  return `utility: your ${tool} call at step ${at} returned exactly what it returned at ${earlier}, byte for byte, ${why} told you nothing new.`;
}

/** The hint an ungated scope gets before a stuck loop's next run. */
export function stuckHint(tool: string, runs: readonly RanResult[], current?: number): string {
  return `utility: the last ${runs.length} runs of this ${tool} call (${describeSteps(runs, current)}) returned the same result, byte for byte; running it again will most likely return it again. Change what decides its result first, or use the result you have.`;
}

/** Why a gated scope refuses a stuck loop's next run (rule `no_progress`); `redundancy` is what the report said. */
export function noProgressReason(tool: string, runs: readonly RanResult[], redundancy: number, current?: number): string {
  return `The last ${runs.length} runs of this ${tool} call (${describeSteps(runs, current)}) returned the same result, byte for byte, so running it again will most likely tell nothing new: Redundancy is at least ${STUCK_REDUNDANCY}, not ${redundancy}. Change what decides its result first, use the result you have, or rescore with Redundancy ≥ ${STUCK_REDUNDANCY} if you expect the same result on purpose.`;
}
