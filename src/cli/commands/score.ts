import { ActionSchema, ACTIONS } from "../../engine/actions.js";
import { DEFAULT_CONFIG } from "../../engine/defaults.js";
import { parseNumber } from "../../engine/report/parse.js";
import { formatReport } from "../../engine/report/format.js";
import { SIGNAL_LABELS, type Lambdas, type Signals } from "../../engine/signals.js";
import { roundUtility, utility } from "../../engine/utility.js";
import { parseCommandArgs, requireOption } from "../args.js";
import { UsageError, type CliIo } from "../io.js";

const USAGE =
  "utility score --gain N --step-cost N --uncertainty N --redundancy N [--lambdas 1,0.5,0.8] [--action tool_call] [--rationale TEXT] [--json]";

const OPTIONS = {
  gain: { type: "string" },
  "step-cost": { type: "string" },
  uncertainty: { type: "string" },
  redundancy: { type: "string" },
  lambdas: { type: "string" },
  action: { type: "string" },
  rationale: { type: "string" },
  json: { type: "boolean" },
} as const;

function signal(option: string, label: string, raw: string | undefined): number {
  const parsed = parseNumber(label, requireOption(raw, option, USAGE));
  if (!parsed.ok) throw new UsageError(`--${option}: ${parsed.problems[0]!.message}`);
  if (parsed.value < 0 || parsed.value > 1) throw new UsageError(`--${option} is ${parsed.value}; ${label} must lie in [0, 1].`);
  return parsed.value;
}

export function parseLambdas(raw: string | undefined): Lambdas {
  if (raw === undefined) return [...DEFAULT_CONFIG.lambdas];
  const parts = raw.split(",").map((p) => p.trim());
  if (parts.length !== 3) throw new UsageError(`--lambdas takes three numbers like 1,0.5,0.8; found ${parts.length} in "${raw}".`);
  return parts.map((p, i) => {
    const parsed = parseNumber(`λ${i + 1}`, p);
    if (!parsed.ok || parsed.value < 0) throw new UsageError(`--lambdas: λ${i + 1} is "${p}"; expected a number ≥ 0.`);
    return parsed.value;
  }) as Lambdas;
}

export function runScore(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}". Usage: ${USAGE}`);
  const signals: Signals = {
    gain: signal("gain", SIGNAL_LABELS.gain, values.gain),
    stepCost: signal("step-cost", SIGNAL_LABELS.stepCost, values["step-cost"]),
    uncertainty: signal("uncertainty", SIGNAL_LABELS.uncertainty, values.uncertainty),
    redundancy: signal("redundancy", SIGNAL_LABELS.redundancy, values.redundancy),
  };
  const lambdas = parseLambdas(values.lambdas);
  const action = ActionSchema.safeParse(values.action ?? "tool_call");
  if (!action.success) throw new UsageError(`--action is "${values.action}"; expected one of ${ACTIONS.join(", ")}.`);
  const report = formatReport({ action: action.data, signals, lambdas, ...(values.rationale !== undefined ? { rationale: values.rationale } : {}) });
  if (values.json) {
    const u = utility(signals, lambdas);
    io.stdout(`${JSON.stringify({ action: action.data, utility: roundUtility(u), unrounded: u, signals, lambdas, report }, null, 2)}\n`);
  } else {
    io.stdout(`${report}\n`);
  }
  return 0;
}
