/**
 * Every setting a user sets for the plugin, declared once: its option name,
 * type, title, description, bounds and a valid example. plugin.json's
 * `userConfig` and the hook server's env block are generated from this list
 * (`npm run build`, scripts/generate.ts), the README's table is checked
 * against it, and the messages' fix commands take their examples from it.
 * How each value is checked lives with its schema (src/optin/user-config.ts).
 */
import { optionEnvName } from "../claude/option-env.js";
import { DEFAULT_WINDOW_HOURS, MAX_WINDOW_HOURS, RETENTION_DEFAULTS } from "../engine/defaults.js";

export { optionEnvName };

export interface UserOption {
  option: string;
  type: "number" | "string";
  title: string;
  description: string;
  min?: number;
  max?: number;
  default?: number | string;
  options?: readonly string[];
  /** Kept in the keychain or Claude Code's credentials file, not settings.json. */
  sensitive?: boolean;
  /** A valid value, for the command a message tells the user to run. */
  example: string;
}

export const PRICES_EXAMPLE = '{"opus":{"input":5,"output":25,"cacheCreation":10,"cacheRead":0.5}}';

const NO_LIMIT = "Leave empty for no limit.";
const EVERY_CALL_REFUSED = "once spent, every tool call but planning tools is refused, in every scope.";

/** In the order Claude Code's `/plugin configure` shows them. */
export const USER_OPTIONS: readonly UserOption[] = [
  {
    option: "token_budget",
    type: "number",
    title: "Token budget per task",
    description: `Tokens (input, output, cache writes and cache reads) a task may spend, in every session and scope, gated or not; the next tool call after it is spent is refused. ${NO_LIMIT}`,
    min: 1,
    example: "200000",
  },
  {
    option: "cost_budget_usd",
    type: "number",
    title: "Cost budget per task (US dollars)",
    description: `Estimated dollars a task may spend (at least 0.01), from the plugin's dated price table; the next tool call after it is spent is refused. ${NO_LIMIT}`,
    min: 0.01,
    example: "0.5",
  },
  {
    option: "max_agents",
    type: "number",
    title: "Subagents per task",
    description: `Subagents a task may launch, its subagents' own launches included; parallel launches count one each. ${NO_LIMIT}`,
    min: 0,
    example: "3",
  },
  {
    option: "max_tool_calls",
    type: "number",
    title: "Tool calls per task",
    description: `Tool calls a task may make, its subagents' included (planning tools such as TodoWrite do not count); the next one after it is reached is refused. ${NO_LIMIT}`,
    min: 1,
    example: "100",
  },
  {
    option: "agent_token_budget",
    type: "number",
    title: "Token cap per subagent",
    description: `Tokens one subagent may spend by itself (any kind: built-in, from a definition, background, a workflow's, nested); once spent, its next tool call is refused and it is told to report to its parent, which goes on. ${NO_LIMIT}`,
    min: 1,
    example: "300000",
  },
  {
    option: "agent_cost_budget_usd",
    type: "number",
    title: "Cost cap per subagent (US dollars)",
    description: `Estimated dollars one subagent may spend by itself (at least 0.01); once spent, its next tool call is refused and it is told to report to its parent. ${NO_LIMIT}`,
    min: 0.01,
    example: "1",
  },
  {
    option: "agent_max_tool_calls",
    type: "number",
    title: "Tool calls per subagent",
    description: `Tool calls one subagent may make by itself; the next one after it is reached is refused and it is told to report to its parent. ${NO_LIMIT}`,
    min: 1,
    example: "50",
  },
  {
    option: "step_cost",
    type: "string",
    title: "StepCost in gated scopes",
    description:
      "computed: StepCost comes from the step-cost formula over measured spend, and a report that understates it by more than 0.05 is refused.",
    options: ["reported", "computed"],
    default: "reported",
    example: "computed",
  },
  {
    option: "session_token_budget",
    type: "number",
    title: "Token budget per session",
    description: `Tokens the whole session may spend, every task and subagent together; ${EVERY_CALL_REFUSED} ${NO_LIMIT}`,
    min: 1,
    example: "2000000",
  },
  {
    option: "session_cost_budget_usd",
    type: "number",
    title: "Cost budget per session (US dollars)",
    description: `Estimated dollars the whole session may spend; ${EVERY_CALL_REFUSED} ${NO_LIMIT}`,
    min: 0.01,
    example: "5",
  },
  {
    option: "session_max_tool_calls",
    type: "number",
    title: "Tool calls per session",
    description: `Tool calls the whole session may make, every task and subagent together (planning tools do not count); ${EVERY_CALL_REFUSED} ${NO_LIMIT}`,
    min: 1,
    example: "1000",
  },
  {
    option: "window_cost_budget_usd",
    type: "number",
    title: "Cost budget per rolling window (US dollars)",
    description: `Estimated dollars all your sessions together may spend in the last window_hours hours (sessions running at once included); once spent, tool calls are refused until the window moves on. ${NO_LIMIT}`,
    min: 0.01,
    example: "20",
  },
  {
    option: "window_hours",
    type: "number",
    title: "Window length (hours)",
    description: `The length of the rolling window of window_cost_budget_usd, 1 to ${MAX_WINDOW_HOURS} hours; ${DEFAULT_WINDOW_HOURS} is the length of Claude's usage windows.`,
    min: 1,
    max: MAX_WINDOW_HOURS,
    default: DEFAULT_WINDOW_HOURS,
    example: String(DEFAULT_WINDOW_HOURS),
  },
  {
    option: "stuck_after",
    type: "number",
    title: "Runs with one result before a stuck loop",
    description:
      "When the last this-many runs of one call (same tool, same input) returned the same result, the next run is refused in gated scopes (unless its report says Redundancy of at least 0.9) and hinted elsewhere. 3 unless set; 0 turns the rule and its notices off.",
    min: 0,
    example: "3",
  },
  {
    option: "confirm_above_uncertainty",
    type: "number",
    title: "Ask me above this Uncertainty",
    description:
      "In gated scopes, a tool_call or delegate whose report says Uncertainty at or above this asks you before it runs (in claude -p it is refused). Leave empty to never ask.",
    min: 0,
    max: 1,
    example: "0.7",
  },
  {
    option: "prices",
    type: "string",
    title: "Price override",
    description: `One line of JSON replacing prices per model family, in US dollars per million tokens, such as ${PRICES_EXAMPLE}. Leave empty for the built-in table.`,
    example: PRICES_EXAMPLE,
  },
  {
    option: "log_retention_days",
    type: "number",
    title: "Keep logs for (days)",
    description: `Step logs and state files of sessions older than this many days are deleted when a session ends, at most hourly (never a session written in the last day, nor one switched on with /utility on that Claude Code can still continue). Prune by hand with utility prune. Leave empty for ${RETENTION_DEFAULTS.maxAgeDays}.`,
    min: 1,
    example: String(RETENTION_DEFAULTS.maxAgeDays),
  },
  {
    option: "log_max_mb",
    type: "number",
    title: "Keep logs up to (MB)",
    description: `Past this many megabytes of step logs and state files, the oldest sessions' are deleted when a session ends (with the same exceptions). Leave empty for ${RETENTION_DEFAULTS.maxMb}.`,
    min: 1,
    example: String(RETENTION_DEFAULTS.maxMb),
  },
  {
    option: "otlp_endpoint",
    type: "string",
    title: "OTLP endpoint for the event stream",
    description:
      "An OpenTelemetry collector's OTLP/HTTP address, such as http://collector:4318 (/v1/logs is added unless given): each step record, refusal, budget stop, identical outcome, stuck loop and task's spend is sent there as a log record, after the hook's answer. Leave empty to send nothing.",
    example: "http://localhost:4318",
  },
  {
    option: "otlp_protocol",
    type: "string",
    title: "OTLP protocol",
    description: "http/protobuf or http/json.",
    options: ["http/protobuf", "http/json"],
    default: "http/protobuf",
    example: "http/json",
  },
  {
    option: "otlp_headers",
    type: "string",
    title: "OTLP headers",
    description:
      "Headers sent with each export, as OTEL_EXPORTER_OTLP_HEADERS writes them: key=value pairs separated by commas, values URL-encoded (such as Authorization=Bearer%20abc). Kept as a sensitive value.",
    sensitive: true,
    example: "Authorization=Bearer%20token",
  },
  {
    option: "otlp_resource_attributes",
    type: "string",
    title: "OTLP resource attributes",
    description:
      "Resource attributes the records carry, as OTEL_RESOURCE_ATTRIBUTES writes them (such as service.name=utility,team=platform); service.name is utility unless set.",
    example: "team=platform,department=eng",
  },
  {
    option: "clickhouse_url",
    type: "string",
    title: "ClickHouse for the step rows",
    description:
      "A ClickHouse HTTP interface, such as http://user:password@clickhouse:8123/?database=team: each step record and task's spend is written there as rows (the tables utility export --clickhouse writes), after the hook's answer; nothing is stored twice. Kept as a sensitive value. Leave empty to send nothing.",
    sensitive: true,
    example: "http://localhost:8123/?database=team",
  },
];

/** plugin.json's `userConfig`: each option as Claude Code's manifest schema reads it. */
export function renderUserConfig(): Record<string, Omit<UserOption, "option" | "example">> {
  return Object.fromEntries(USER_OPTIONS.map(({ option, example: _example, ...rest }) => [option, rest]));
}

/**
 * The hook server's env block: Claude Code hands a plugin's MCP server no
 * `CLAUDE_PLUGIN_OPTION_*` of its own (docs/claude-code-facts.md), so each is
 * passed through `${user_config.X}`.
 */
export function renderServerEnv(): Record<string, string> {
  return Object.fromEntries(USER_OPTIONS.map(({ option }) => [optionEnvName(option), `\${user_config.${option}}`]));
}

/** An option's example value. */
export function exampleOf(option: string): string | undefined {
  return USER_OPTIONS.find((o) => o.option === option)?.example;
}
