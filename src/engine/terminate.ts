import type { Action } from "./vocabulary.js";
import type { Config } from "./signals.js";
import type { Scored } from "./select.js";

export type TerminationRule = "stop" | "budget" | "floor";

export interface Override {
  /** The candidate whose Gain lifts the floor rule. */
  action: Action;
  gain: number;
}

export interface Termination {
  terminate: boolean;
  rule?: TerminationRule;
  /** Set when every non-stop candidate is below the floor but a Gain ≥ threshold lets the loop go on. */
  override?: Override;
  reason: string;
}

export interface TerminationInput {
  selected: Action;
  /** The candidates the floor rule looks at: the whole table, or the selected action alone (short form). */
  considered: readonly Scored[];
  /** Steps already taken in this task. */
  step: number;
  config: Config;
}

/** SPEC §3: checked in order after selection: stop, budget, floor (with the high-gain override). */
export function checkTermination({ selected, considered, step, config }: TerminationInput): Termination {
  if (selected === "stop") return { terminate: true, rule: "stop", reason: "the selected action is stop" };
  if (step >= config.maxSteps) {
    return { terminate: true, rule: "budget", reason: `step ${step} has reached max_steps ${config.maxSteps}` };
  }
  const nonStop = considered.filter((c) => c.action !== "stop");
  const allBelow = nonStop.length > 0 && nonStop.every((c) => c.utility < config.floor);
  if (!allBelow) return { terminate: false, reason: "at least one non-stop candidate is at or above the floor" };
  const lifter = [...nonStop].sort((a, b) => b.signals.gain - a.signals.gain)[0]!;
  if (lifter.signals.gain >= config.highGainThreshold) {
    return {
      terminate: false,
      override: { action: lifter.action, gain: lifter.signals.gain },
      reason: `every non-stop candidate is below the floor ${config.floor}, but ${lifter.action} has Gain ${lifter.signals.gain} ≥ ${config.highGainThreshold} (high-gain override)`,
    };
  }
  return {
    terminate: true,
    rule: "floor",
    reason: `every non-stop candidate is below the floor ${config.floor} and none has Gain ≥ ${config.highGainThreshold}`,
  };
}
