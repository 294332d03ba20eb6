// What offline replay takes and reports: its options, one session's replay
// (./core.ts), and the shape of `utility replay --json`.
import type { Sha256Hex } from "../engine/redundancy.js";
import type { UserSettings } from "../engine/session/decide.js";
import type { GateSource, SessionState } from "../engine/session/state.js";
import type { Config } from "../engine/signals.js";
import type { Conversation, RuleId } from "../engine/vocabulary.js";
import type { Spend } from "../engine/spend.js";

import type { TokenCounts } from "../engine/spend.js";

/**
 * A subagent's own file: its agent id (from its name), and the type Claude
 * Code recorded for it with the gate its definition brings, when they were
 * read (./agent-definitions.ts): the hooks load that definition at its start.
 */
export interface SubagentFile {
  agentId?: string;
  agentType?: string;
  definition?: GateSource;
}

export interface ReplayOptions {
  /** Also gate every scope (the default configuration, or `config`): "what if every scope were gated". */
  gated?: boolean;
  config?: Config;
  /** The events are a subagent's own file: every line is that one scope. */
  subagentFile?: SubagentFile;
  /** A skill's opt-in from its SKILL.md, as the hooks read it; undefined when the file is gone or opts in to nothing. */
  skillSource?: (skillFile: string) => GateSource | undefined;
  /** The user's settings to replay budgets under (default: none). */
  user?: UserSettings;
  /** How call inputs are hashed for their digests (default: the engine's own SHA-256; the file layer passes node:crypto's, the same digests faster). */
  sha256?: Sha256Hex;
}

/** Tokens a scope's assistant messages spent, as their `usage` says, and the estimated cost (SPEC §12). */
export interface ReplaySpend {
  /** `main`, `agent:<id>`, or `sidechain` (Claude Code 1.0 inline subagent lines, which carry no agent id). */
  scope: string;
  messages: number;
  tokens: TokenCounts;
  byModel: Record<string, TokenCounts>;
  total: number;
  costUsd: number;
}

/** How the token cost of a repeat is estimated; printed with every report. */
export const TOKEN_ESTIMATE =
  "tokens ≈ ceil(UTF-8 bytes of the repeated call's recorded tool result / 4); the call's own input and the model's turn around it are not counted";

/** Where a call stands: its line in the file, its place among the scope's calls, its task and step. */
export interface CallRef {
  toolUseId: string;
  /** 1-based line number in the file. */
  line: number;
  /** 1-based index among the scope's tool calls (neutral tools included). */
  index: number;
  task: number;
  /** The step this call is in its task, counted as the hooks count in an ungated scope (neutral tools are not steps: 0). */
  step: number;
}

export interface RepeatFinding {
  tool: string;
  input: unknown;
  /** sha256 of the canonical input (keys sorted) without its tool's cosmetic fields (src/engine/redundancy.ts callDigest), first 32 hex digits: the step log's `inputDigest`. */
  digest: string;
  /** The latest earlier identical call that ran, with nothing in between that could change its result. */
  first: CallRef;
  /** The call that repeats it. */
  repeat: CallRef;
  /** Size of the repeat's recorded result (0 when none came back). */
  resultBytes: number;
  tokens: number;
}

export interface RefusalFinding {
  call: CallRef;
  tool: string;
  rule: RuleId;
  reason: string;
  /** Steps the gated scope had taken in this task before the call (refused calls are not steps). */
  stepsBefore: number;
}

/** SPEC §13: a call that returned byte for byte what the same call returned at its last run, and was no exact repeat (something that could change it ran in between, or that run had failed). */
export interface IdenticalOutcomeFinding {
  tool: string;
  input: unknown;
  /** The call whose result told nothing new. */
  call: CallRef;
  /** The same call's last run before it, which returned the same. */
  of: CallRef;
  resultBytes: number;
  /** That run had failed: this was a retry (nothing need have run in between). */
  retry?: true;
}

/** SPEC §13: a call about to run again after its last runs (3, or `utility_stuck_after`) all returned the same result. */
export interface StuckLoopFinding {
  tool: string;
  input: unknown;
  call: CallRef;
  /** Those last runs, oldest first. */
  runs: CallRef[];
  /** The gate refused it (rule `no_progress`); else it was hinted (ungated) or let through (Redundancy ≥ 0.9). */
  refused: boolean;
}

/** One call as the hooks would have logged its PreToolUse record (neutral tools are not logged). */
export interface DecidedCall {
  toolUseId: string;
  tool: string;
  decision: "passed" | "observed" | "refused";
  rule?: RuleId;
  task: number;
  /** The scope's step after the decision, as the record's `step` (a refusal takes none). */
  step: number;
  /** The step of the earlier identical call, when the call is an exact repeat (the record's `repeat.ofStep`). */
  repeatOfStep?: number;
  /** That earlier call's tool_use_id (the record's `repeat.toolUseId`). */
  repeatOf?: string;
  /** The gate left it to the user (SPEC §14; the record's `fallback`). */
  fallback?: "user";
  /** It was a stuck loop's next run: the steps of the runs before it (the record's `stuck.steps`). */
  stuckSteps?: number[];
}

export interface GateReplay {
  /** Calls the gate would have let through (they count as steps). */
  passed: number;
  refused: number;
  /** Neutral tools (Skill, TodoWrite, …): never checked, never steps. */
  neutral: number;
  byRule: Partial<Record<RuleId, number>>;
  refusals: RefusalFinding[];
}

export type ScopeSource =
  /** The session file's own lines (isSidechain false). */
  | "main"
  /** Subagent lines inside the session file: 1.0 inline sidechains or 2.1 agent_progress copies. */
  | "inline"
  /** A subagent's own file, `<session>/subagents/agent-<id>.jsonl`. */
  | "subagent_file";

export interface SpawnedBy {
  toolUseId: string;
  line: number;
  tool: string;
  description?: string;
  subagentType?: string;
}

export interface ScopeReplay {
  /** `main`, `agent:<id>`, or `sidechain:<n>` for 1.0 inline runs (no agent id in the file). */
  id: string;
  /** Whose loop: the main conversation or a subagent (engine/vocabulary.ts, Conversation). */
  scope: Conversation;
  source: ScopeSource;
  agentId?: string;
  /** The delegating call in the main scope whose prompt this subagent received. */
  spawnedBy?: SpawnedBy;
  firstLine: number;
  lastLine: number;
  /** Tool calls of the scope, each tool_use id once. */
  calls: number;
  tools: Record<string, number>;
  /** Tasks seen (main: one per real user prompt; a subagent: its life). */
  tasks: number;
  compactions: number;
  /** Calls whose result never came back. */
  unanswered: number;
  /** Calls that came back with is_error. */
  errors: number;
  repeats: RepeatFinding[];
  repeatTokens: number;
  /** Calls that told nothing (SPEC §13): identical outcomes, in the order their results came. */
  identicalOutcomes: IdenticalOutcomeFinding[];
  /** Stuck loops (SPEC §13): calls decided after their last runs all returned the same result. */
  stuckLoops: StuckLoopFinding[];
  /** Every non-neutral call, decided as the hooks decide it, in order. */
  decided: DecidedCall[];
  /** What the scope spent over the whole file (every task), as the hooks measure it (SPEC §12); absent when no line reported usage. */
  spend?: Spend;
  /** The same, task by task (the session machine's count at each task's end). */
  taskSpend: Array<{ task: number; spend: Spend }>;
  /** Assistant messages that reported usage, each once. */
  messages?: number;
  /** A subagent: the main scope's task it was launched in, whose spend it counts toward (the session machine's). */
  rootTask?: number;
  /** A subagent: its place among the subagents its root task started (1 for the first), as agent budgets count them. */
  ordinal?: number;
  /** A subagent's type, when the machine learned it. */
  agentType?: string;
  gate?: GateReplay;
}

/** One task of the main scope, as replay saw it start and spend. */
export interface TaskReplay {
  task: number;
  /** The line that started it (its prompt's, or a resumed session's first). */
  line: number;
  /** The start of the prompt that started it (none: a resumed session's first task). */
  prompt?: string;
  /** When that line was written (ISO time), if it says. */
  startedAt?: string;
  /**
   * Before each call of the task's tree that a budget could refuse (every
   * call but the neutral tools'), what the task had spent: the figures its
   * budgets are checked against (SPEC §12), in the order the calls were decided.
   */
  trail: SpentBefore[];
}

/** What a task's tree, or one subagent by itself, had spent before a call a budget could refuse. */
export interface SpentBefore {
  tokens: number;
  costUsd: number;
  /** Tool calls that ran (steps). */
  calls: number;
}

/** A delegating call of the main scope (Task, Agent), kept to link subagent scopes to it by prompt. */
export interface Delegation {
  toolUseId: string;
  line: number;
  tool: string;
  prompt?: string;
  description?: string;
  subagentType?: string;
}

/** One session's events replayed (./core.ts). */
export interface EventsReplay {
  scopes: ScopeReplay[];
  /** Delegating calls of the main scope, in order. */
  delegations: Delegation[];
  /** The first prompt each subagent scope received, by scope id (to link it to a delegation). */
  prompts: Record<string, string>;
  /** Highest line number seen. */
  lines: number;
  /** The session machine's state at the end: what every surface reads. */
  session: SessionState;
  /** The main scope's tasks, in order: each one's prompt and the spend its budgets would have been checked against, call by call. */
  tasks: TaskReplay[];
  /**
   * Each subagent's own spend (its scope's, not its tree's) before each of its
   * calls a cap could refuse, by scope id: what the per-agent caps are
   * checked against (SPEC §16), in the order the calls were decided.
   */
  agentTrails: Record<string, SpentBefore[]>;
}

export interface FileReplay {
  path: string;
  role: "session" | "subagent";
  /** For a subagent file found beside a session file: that session file. */
  subagentOf?: string;
  lines: number;
  /** Tool calls in the file, each tool_use id once (the sum over its scopes). */
  calls: number;
  scopes: ScopeReplay[];
  /** Spend per scope of the file's assistant messages (a session file's agent_progress copies included). */
  spend: ReplaySpend[];
}

export interface ReplayTotals {
  files: number;
  scopes: number;
  /** Distinct tool_use ids over all files (a call copied into two files counts once). */
  calls: number;
  repeats: number;
  repeatTokens: number;
  identicalOutcomes: number;
  stuckLoops: number;
  /** Every file's messages together, each message id once (copies in two files count once). */
  spend: Omit<ReplaySpend, "scope">;
  /** The price table's date the cost was estimated with. */
  pricesDate: string;
  /** With --gated. */
  refused?: number;
  passed?: number;
}

export interface ReplayReport {
  version: 1;
  /** How replay differs from the hooks (it has no hook input), in words. */
  policy: string;
  gated: boolean;
  tokenEstimate: string;
  files: FileReplay[];
  totals: ReplayTotals;
}
