import { appendJsonLine } from "../state/log-file.js";
import { dataDir, sessionLogPath } from "../state/paths.js";
import { FileStateStore, type StateStore } from "../state/store.js";
import type { LogRecord } from "../log/record.js";
import type { GateSource } from "../state/schema.js";
import { findAgentDefinition, pluginDirsOf } from "./agent-definition.js";
import { loadSkillSource, type SkillLoader } from "./gating.js";
import type { ScopeRef } from "./scope.js";
import type { GoverningText } from "../transcript/queries.js";
import { waitForFinalMessage, waitForGoverningText } from "./wait.js";

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
  loadSkill: SkillLoader;
  /** The text governing a call, waiting (bounded) for Claude Code to write its line. */
  waitForText(ref: ScopeRef, toolUseId: string): GoverningText;
  /** Waits (bounded) until the scope's transcript holds a Stop hook's final message; optional for fakes. */
  waitForFinal?(ref: ScopeRef, finalText: string): boolean;
  /** The gate source of a subagent type's definition, if it opts in. */
  loadAgent(agentType: string, cwd: string | undefined): Promise<GateSource | undefined>;
}

export const PLUGIN_NAME = "utility";

export function processContext(env: Record<string, string | undefined> = process.env): HookContext {
  const dir = dataDir(env);
  return {
    env,
    dataDir: dir,
    store: new FileStateStore(dir),
    // process.hrtime, not performance.now(): the `performance` global loads perf_hooks (about 1 ms of start-up).
    now: () => Number(process.hrtime.bigint()) / 1e6,
    clock: () => new Date(),
    appendLog: (sessionId, record) => appendJsonLine(sessionLogPath(dir, sessionId), record),
    loadSkill: loadSkillSource,
    waitForText: (ref, toolUseId) => waitForGoverningText(ref, toolUseId),
    waitForFinal: (ref, finalText) => waitForFinalMessage(ref, finalText),
    loadAgent: async (agentType, cwd) => {
      const file = findAgentDefinition({
        agentType,
        projectDir: env.CLAUDE_PROJECT_DIR || cwd,
        ...(env.CLAUDE_PLUGIN_ROOT ? { pluginRoot: env.CLAUDE_PLUGIN_ROOT } : {}),
        pluginName: PLUGIN_NAME,
        ...(agentType.includes(":") && !agentType.startsWith(`${PLUGIN_NAME}:`) ? { pluginDirs: pluginDirsOf(env.CLAUDE_PID) } : {}),
        ...(env.HOME ? { home: env.HOME } : {}),
      });
      return file ? loadSkillSource(file) : undefined;
    },
  };
}
