// The tables `utility export --clickhouse` creates (docs/team.md). Written for
// ClickHouse 18.16 (Debian's clickhouse-server) and later: DateTime('UTC'),
// ReplacingMergeTree with the new-style ORDER BY, no LowCardinality, no
// DateTime64. A row sent twice has the same sorting key, so merges keep one,
// and `utility export` reads back what is stored before it sends (./clickhouse-export.ts).

/** utility_steps: one row per step-log record (SPEC §8), keyed by a digest of its session and line. */
export const STEPS_TABLE = `CREATE TABLE IF NOT EXISTS utility_steps (
  id String,
  time DateTime('UTC'),
  time_ms UInt64,
  developer String,
  project String,
  session_id String,
  prompt_key String,
  prompt_id String,
  scope String,
  agent_type String,
  task UInt32,
  step UInt32,
  event String,
  tool String,
  tool_use_id String,
  decision String,
  rule String,
  reason String,
  gated UInt8,
  action String,
  utility Nullable(Float64),
  model String,
  message_id String,
  input_tokens UInt64,
  output_tokens UInt64,
  cache_creation_tokens UInt64,
  cache_read_tokens UInt64,
  repeat UInt8,
  stuck UInt8,
  identical UInt8,
  outcome String,
  latency_ms Float64
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (session_id, id)`;

/** utility_tasks: one row per task of a scope, its spend at the last export; a later export with more records replaces it (version). */
export const TASKS_TABLE = `CREATE TABLE IF NOT EXISTS utility_tasks (
  id String,
  version UInt64,
  started DateTime('UTC'),
  ended DateTime('UTC'),
  developer String,
  project String,
  session_id String,
  prompt_id String,
  scope String,
  task UInt32,
  steps UInt32,
  refusals UInt32,
  tokens UInt64,
  cost_usd Float64,
  models Array(String)
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(started)
ORDER BY (session_id, id)`;

export const TABLES = { steps: "utility_steps", tasks: "utility_tasks" } as const;
