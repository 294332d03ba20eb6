import * as z from "zod/mini";
import { DEFAULT_CONFIG, UTILITY_MAX, UTILITY_MIN } from "./defaults.js";
import { LambdasSchema } from "./vocabulary.js";

export const SIGNAL_NAMES = ["gain", "stepCost", "uncertainty", "redundancy"] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** How each signal is written in a report's Breakdown line. */
export const SIGNAL_LABELS: Record<SignalName, string> = {
  gain: "Gain",
  stepCost: "StepCost",
  uncertainty: "Uncertainty",
  redundancy: "Redundancy",
};

const unit = (name: string) =>
  z.number({ error: `${name} must be a number` }).check(z.refine((v) => v >= 0 && v <= 1, { error: `${name} must lie in [0, 1]` }));

export const SignalsSchema = z.object({
  gain: unit("Gain"),
  stepCost: unit("StepCost"),
  uncertainty: unit("Uncertainty"),
  redundancy: unit("Redundancy"),
});
export type Signals = z.infer<typeof SignalsSchema>;

export const ConfigSchema = z.object({
  lambdas: z._default(LambdasSchema, () => [...DEFAULT_CONFIG.lambdas] as [number, number, number]),
  floor: z._default(
    z
      .number()
      .check(z.refine((v) => v >= UTILITY_MIN && v <= UTILITY_MAX, { error: `the floor must lie in [${UTILITY_MIN}, ${UTILITY_MAX}]` })),
    DEFAULT_CONFIG.floor,
  ),
  maxSteps: z._default(z.int().check(z.minimum(1, { error: "max_steps must be a whole number ≥ 1" })), DEFAULT_CONFIG.maxSteps),
  highGainThreshold: z._default(
    z.number().check(z.refine((v) => v >= 0 && v <= 1, { error: "the high-gain threshold must lie in [0, 1]" })),
    DEFAULT_CONFIG.highGainThreshold,
  ),
});
export type Config = z.infer<typeof ConfigSchema>;

export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}
