// A fast path for reading the state (SPEC §11): every hook call reads it, and
// validating a long session's state with zod (its history holds up to 256
// calls) costs a hook about 4 ms, a tenth of starting Node.
//
// `isWellFormedState` accepts only what SessionStateSchema accepts *and
// returns unchanged*: every required key present, no unknown key, every value
// of its exact type and range. Anything else (an old layout, a key the schema
// would fill with a default or strip, a hand edit) goes to the schema, which
// stays the authority and names the problem. test/perf/well-formed.test.ts
// keeps the key lists here equal to the schema's.
import { ACTIONS, OPT_IN_SCOPES } from "../engine/vocabulary.js";
import { UTILITY_MAX, UTILITY_MIN } from "../engine/defaults.js";
import type { SessionState } from "./schema.js";

type Check = (value: unknown) => boolean;

/** The keys of each object in the state: required, then optional. Exported for the test that compares them with the schema. */
export const STATE_KEYS = {
  session: { required: ["version", "sessionId", "manualGate", "main", "agents"], optional: ["prompts", "userBudgets"] },
  vouchedPrompt: { required: ["own"], optional: ["switch"] },
  scope: {
    required: ["task", "step", "refusals", "offset", "sources", "pending", "history"],
    optional: [
      "lastAction",
      "awaitingActivation",
      "awaitingPrompt",
      "stopBlocked",
      "agentType",
      "definition",
      "ended",
      "spend",
      "rootTask",
      "messages",
      "messageModels",
      "callMessages",
    ],
  },
  gateSource: { required: ["file", "gated", "scope", "config", "extraTools"], optional: ["problem", "budgets"] },
  budgets: { required: [], optional: ["tokenBudget", "costBudgetUsd", "maxAgents", "stepCost"] },
  config: { required: ["lambdas", "floor", "maxSteps", "highGainThreshold"], optional: [] },
  ranCall: { required: ["tool", "digest", "effect", "at"], optional: ["toolUseId", "jobId", "jobOf", "failed", "startedAt", "tokens"] },
  spend: { required: ["tokens", "byModel", "toolCalls", "agentsLaunched"], optional: [] },
  tokens: { required: ["input", "output", "cacheCreation", "cacheRead"], optional: [] },
  effectWithPaths: { required: ["kind", "paths"], optional: [] },
  effectExec: { required: ["kind"], optional: ["background"] },
  effectBare: { required: ["kind"], optional: [] },
} as const;

type Shape = { readonly required: readonly string[]; readonly optional: readonly string[] };

const isString: Check = (v) => typeof v === "string";
const isBoolean: Check = (v) => typeof v === "boolean";
const isNumber: Check = (v) => typeof v === "number" && Number.isFinite(v);
const inRange =
  (min: number, max: number): Check =>
  (v) =>
    isNumber(v) && (v as number) >= min && (v as number) <= max;
const arrayOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === "string" && values.includes(v);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  // "__proto__" as an own key (JSON.parse makes one) would not survive the schema's copy.
  return (proto === Object.prototype || proto === null) && !Object.prototype.hasOwnProperty.call(value, "__proto__");
}

const recordOf =
  (item: Check): Check =>
  (v) =>
    isPlainObject(v) && Object.values(v).every(item);

/** An object with exactly the shape's keys (optional ones may be missing), each passing its check. */
function objectOf(shape: Shape, checks: Record<string, Check>): Check {
  const known = new Set([...shape.required, ...shape.optional]);
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (const key of shape.required) if (!(key in v)) return false;
    for (const key of Object.keys(v)) {
      if (!known.has(key)) return false;
      if (!checks[key]!(v[key])) return false;
    }
    return true;
  };
}

const isConfig = objectOf(STATE_KEYS.config, {
  lambdas: (v) => Array.isArray(v) && v.length === 3 && v.every((x) => isNumber(x) && (x as number) >= 0),
  floor: inRange(UTILITY_MIN, UTILITY_MAX),
  maxSteps: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  highGainThreshold: inRange(0, 1),
});

const isBudgets = objectOf(STATE_KEYS.budgets, {
  tokenBudget: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  costBudgetUsd: (v) => isNumber(v) && (v as number) > 0,
  maxAgents: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  stepCost: oneOf(["reported", "computed"]),
});

const isGateSource = objectOf(STATE_KEYS.gateSource, {
  file: isString,
  gated: isBoolean,
  scope: oneOf(OPT_IN_SCOPES),
  config: isConfig,
  extraTools: recordOf(arrayOf(isString)),
  problem: isString,
  budgets: isBudgets,
});

const isEffectWithPaths = objectOf(STATE_KEYS.effectWithPaths, { kind: isString, paths: arrayOf(isString) });
const isEffectExec = objectOf(STATE_KEYS.effectExec, { kind: isString, background: isBoolean });
const isEffectBare = objectOf(STATE_KEYS.effectBare, { kind: isString });

const isEffect: Check = (v) => {
  if (!isPlainObject(v)) return false;
  switch (v.kind) {
    case "read":
    case "write":
      return isEffectWithPaths(v);
    case "exec":
      return isEffectExec(v);
    case "poll":
    case "neutral":
      return isEffectBare(v);
    default:
      return false;
  }
};

const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const isTokens = objectOf(STATE_KEYS.tokens, { input: isCount, output: isCount, cacheCreation: isCount, cacheRead: isCount });
const isSpend = objectOf(STATE_KEYS.spend, { tokens: isTokens, byModel: recordOf(isTokens), toolCalls: isCount, agentsLaunched: isCount });

const isRanCall = objectOf(STATE_KEYS.ranCall, {
  tool: isString,
  digest: isString,
  effect: isEffect,
  at: isNumber,
  toolUseId: isString,
  jobId: isString,
  jobOf: isString,
  failed: isBoolean,
  startedAt: isNumber,
  tokens: isTokens,
});

const isScope = objectOf(STATE_KEYS.scope, {
  task: isNumber,
  step: isNumber,
  refusals: isNumber,
  offset: isNumber,
  sources: arrayOf(isGateSource),
  pending: recordOf(isRanCall),
  history: arrayOf(isRanCall),
  lastAction: oneOf(ACTIONS),
  awaitingActivation: isBoolean,
  awaitingPrompt: isString,
  stopBlocked: isBoolean,
  agentType: isString,
  definition: isGateSource,
  ended: isBoolean,
  spend: isSpend,
  rootTask: isNumber,
  messages: recordOf(isTokens),
  messageModels: recordOf(isString),
  callMessages: recordOf(isString),
});

const isVouchedPrompt = objectOf(STATE_KEYS.vouchedPrompt, { own: isBoolean, switch: oneOf(["on", "off"]) });

const isSession = objectOf(STATE_KEYS.session, {
  version: (v) => v === 1,
  sessionId: isString,
  manualGate: isBoolean,
  main: isScope,
  agents: recordOf(isScope),
  prompts: recordOf(isVouchedPrompt),
  userBudgets: isBudgets,
});

/** True only for data that SessionStateSchema accepts and would return unchanged. */
export function isWellFormedState(data: unknown): data is SessionState {
  return isSession(data);
}
