import { existsSync } from "node:fs";
import { PRE_TOOL_USE_DEADLINE_MS } from "../engine/defaults.js";
import { readLogFile } from "../summary/load.js";
import { appendJsonLine } from "../state/log-file.js";
import { withLedger } from "../state/ledger.js";
import { dataDir, sessionLogPath } from "../state/paths.js";
import { DEFAULT_LOCK, type LockOptions } from "../state/lock-file.js";
import { FileStateStore, type Later, type StateStore } from "../state/store.js";
import type { LogRecord } from "../log/record.js";
import type { GateSource } from "../engine/session/state.js";
import { agentGateSource } from "../claude/agent-definition.js";
import { loadSkillSource, type SkillLoader } from "../claude/skill-source.js";
import type { ScopeRef } from "./scope.js";
import type { GoverningText } from "../transcript/queries.js";
import type { Sha256Hex } from "../engine/redundancy.js";
import type { HookSettings } from "./settings.js";
import type { SkillVerdict } from "../skills/classify.js";
import { deadlineAt, type Deadline } from "./deadline.js";
import { DEFAULT_WAIT, FINAL_WAIT, finalMessageTexts, waitForFinalMessage, waitForGoverningText } from "./wait.js";

/** Everything a hook handler may touch besides its input; tests pass fakes for the parts they do not test. */
export interface HookContext {
  env: Record<string, string | undefined>;
  dataDir: string;
  store: StateStore;
  /** Milliseconds, for latency. */
  now(): number;
  /** Wall clock, for records. */
  clock(): Date;
  appendLog(sessionId: string, record: LogRecord): void;
  /** The session's step log as far as it can be read (unreadable lines skipped); optional for fakes. */
  readLog?(sessionId: string): LogRecord[];
  loadSkill: SkillLoader;
  /** The text governing a call, waiting (bounded) for Claude Code to write its line. */
  waitForText(ref: ScopeRef, toolUseId: string): GoverningText;
  /** Waits (bounded) until the scope's transcript holds a Stop hook's final message; optional for fakes. */
  waitForFinal?(ref: ScopeRef, finalText: string): boolean;
  /** Every text block of the scope's last assistant message in its transcript; optional for fakes. */
  readFinal?(ref: ScopeRef): string[] | undefined;
  /** The gate source of a subagent type's definition, if it opts in. */
  loadAgent(agentType: string, cwd: string | undefined): Promise<GateSource | undefined>;
  /** What a Skill call can do (src/skills/classify.ts); the real one reads the files Claude Code could load. Optional for fakes. */
  judgeSkill?(toolInput: unknown, cwd: string | undefined, since?: number): Promise<SkillVerdict>;
  /** When the hook must have decided; every wait ends before it. Optional for fakes. */
  deadline?: Deadline;
  /**
   * Where writes may wait until the answer is sent (the warm server runs them
   * then, before the next call; src/server/serve.ts). Absent (a hook process,
   * a test), everything is written before the hook answers.
   */
  later?: Later;
  /** The user's settings, for a process whose environment never changes (the warm server reads them once); absent: read per call. */
  settings?: () => HookSettings;
  /** SHA-256 for call digests: node:crypto in the warm server; absent: the engine's own (no module to load in a hook process). */
  sha256?: Sha256Hex;
}

export const PLUGIN_NAME = "utility";

// process.hrtime, not performance.now(): the `performance` global loads perf_hooks (about 1 ms of start-up).
export const hrNow = () => Number(process.hrtime.bigint()) / 1e6;

/** When this process started, on the clock of `HookContext.now`: a hook process's deadline counts from there, as Claude Code's timeout counts from the spawn. */
export function processStartedMs(): number {
  return hrNow() - process.uptime() * 1000;
}

/**
 * The real context, one per hook call. Its deadline counts from `startedMs`:
 * the process's start for a hook process, the call's arrival in the warm
 * server, by default the context's making (a test running many hooks in one
 * process). The warm server passes its own long-lived `store`, whose lock
 * waits end at the current call's deadline, and its queue of work for after
 * the answer (`later`).
 */
export function processContext(
  env: Record<string, string | undefined> = process.env,
  startedMs: number = hrNow(),
  parts: Pick<HookContext, "later" | "settings" | "sha256"> & { store?: StateStore } = {},
): HookContext {
  const dir = dataDir(env);
  const now = hrNow;
  const deadline = deadlineAt(now, startedMs, PRE_TOOL_USE_DEADLINE_MS);
  return {
    env,
    dataDir: dir,
    store: withLedger(parts.store ?? new FileStateStore(dir, lockWithin(deadline)), dir, () => new Date()),
    now,
    clock: () => new Date(),
    appendLog: (sessionId, record) => appendJsonLine(sessionLogPath(dir, sessionId), record),
    readLog: (sessionId) => {
      const file = sessionLogPath(dir, sessionId);
      return existsSync(file) ? readLogFile(file).records : [];
    },
    loadSkill: loadSkillSource,
    waitForText: (ref, toolUseId) => waitForGoverningText(ref, toolUseId, { ...DEFAULT_WAIT, deadline }),
    waitForFinal: (ref, finalText) => waitForFinalMessage(ref, finalText, { ...FINAL_WAIT, deadline }),
    readFinal: finalMessageTexts,
    deadline,
    ...(parts.later ? { later: parts.later } : {}),
    ...(parts.settings ? { settings: parts.settings } : {}),
    ...(parts.sha256 ? { sha256: parts.sha256 } : {}),
    loadAgent: (agentType, cwd) =>
      agentGateSource({
        agentType,
        env,
        projectDir: env.CLAUDE_PROJECT_DIR || cwd,
        ...(env.CLAUDE_PLUGIN_ROOT ? { pluginRoot: env.CLAUDE_PLUGIN_ROOT } : {}),
        pluginName: PLUGIN_NAME,
        ...(env.HOME ? { home: env.HOME } : {}),
      }),
  };
}

/**
 * The state lock's wait, ending at the deadline (read when the lock is tried,
 * not now). Not at the wait budget: once the lock is held, what is left to do
 * is short, and Claude Code's own timeout is seconds beyond the deadline.
 */
export function lockWithin(deadline: Deadline): LockOptions {
  return {
    staleMs: DEFAULT_LOCK.staleMs,
    get timeoutMs() {
      return Math.max(0, Math.min(DEFAULT_LOCK.timeoutMs, deadline.remainingMs()));
    },
  };
}
