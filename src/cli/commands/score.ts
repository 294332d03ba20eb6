import { ActionSchema, ACTIONS, LambdasSchema, type Lambdas } from "../../engine/vocabulary.js";
import { DEFAULT_CONFIG } from "../../engine/defaults.js";
import { parseNumber } from "../../engine/report/fields.js";
import { formatReport } from "../../engine/report/format.js";
import { SIGNAL_LABELS, type Signals } from "../../engine/signals.js";
import { roundUtility, utility } from "../../engine/utility.js";
import { requireOptions, stringOption } from "../args.js";
import type { CommandSpec } from "../command-spec.js";
import { printJson, UsageError, type CliIo, type Parsed } from "../io.js";

const ARGS = `--gain N --step-cost N --uncertainty N --redundancy N [--lambdas ${DEFAULT_CONFIG.lambdas.join(",")}] [--action tool_call] [--rationale TEXT] [--json]`;
const USAGE = `utility score ${ARGS}`;

function signal(option: string, label: string, raw: string | boolean | undefined): number {
  const parsed = parseNumber(label, String(raw));
  if (!parsed.ok) throw new UsageError(`--${option}: ${parsed.problems[0]!.message}`);
  if (parsed.value < 0 || parsed.value > 1) throw new UsageError(`--${option} is ${parsed.value}; ${label} must lie in [0, 1].`);
  return parsed.value;
}

export function parseLambdas(raw: string | undefined): Lambdas {
  if (raw === undefined) return [...DEFAULT_CONFIG.lambdas];
  const parts = raw.split(",").map((p) => p.trim());
  if (parts.length !== 3)
    throw new UsageError(`--lambdas takes three numbers like ${DEFAULT_CONFIG.lambdas.join(",")}; found ${parts.length} in "${raw}".`);
  const bad = (i: number) => new UsageError(`--lambdas: λ${i + 1} is "${parts[i]}"; expected a number ≥ 0.`);
  const numbers = parts.map((p, i) => {
    const parsed = parseNumber(`λ${i + 1}`, p);
    if (!parsed.ok) throw bad(i);
    return parsed.value;
  });
  const checked = LambdasSchema.safeParse(numbers);
  if (!checked.success) throw bad(Number(checked.error.issues[0]!.path[0] ?? 0));
  return checked.data;
}

function runScore({ values }: Parsed, io: CliIo): number {
  requireOptions(
    [
      [values.gain, "gain"],
      [values.stepCost, "step-cost"],
      [values.uncertainty, "uncertainty"],
      [values.redundancy, "redundancy"],
    ],
    USAGE,
  );
  const signals: Signals = {
    gain: signal("gain", SIGNAL_LABELS.gain, values.gain),
    stepCost: signal("step-cost", SIGNAL_LABELS.stepCost, values.stepCost),
    uncertainty: signal("uncertainty", SIGNAL_LABELS.uncertainty, values.uncertainty),
    redundancy: signal("redundancy", SIGNAL_LABELS.redundancy, values.redundancy),
  };
  const lambdas = parseLambdas(stringOption(values.lambdas));
  const action = ActionSchema.safeParse(values.action ?? "tool_call");
  if (!action.success) throw new UsageError(`--action is "${String(values.action)}"; expected one of ${ACTIONS.join(", ")}.`);
  const rationale = stringOption(values.rationale);
  const report = formatReport({ action: action.data, signals, lambdas, ...(rationale !== undefined ? { rationale } : {}) });
  if (values.json) {
    const u = utility(signals, lambdas);
    printJson(io, { action: action.data, utility: roundUtility(u), unrounded: u, signals, lambdas, report });
  } else {
    io.stdout(`${report}\n`);
  }
  return 0;
}

export const SCORE: CommandSpec = {
  name: "score",
  summary: "print the action report for four signals",
  usage: ARGS,
  options: [
    ["--gain <n>", "Gain, in [0, 1]"],
    ["--step-cost <n>", "StepCost, in [0, 1]"],
    ["--uncertainty <n>", "Uncertainty, in [0, 1]"],
    ["--redundancy <n>", "Redundancy, in [0, 1]"],
    ["--lambdas <l1,l2,l3>", `the three weights (default ${DEFAULT_CONFIG.lambdas.join(",")})`],
    ["--action <action>", "the action reported (default tool_call)"],
    ["--rationale <text>", "the Rationale line"],
    ["--json", "print JSON"],
  ],
  run: runScore,
};
