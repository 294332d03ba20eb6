import { existsSync } from "node:fs";
import type { LogRecord } from "../../log/record.js";
import { readLogFile } from "../../report/load.js";
import { effectiveGate } from "../../hooks/gating.js";
import type { ScopeRef } from "../../hooks/scope.js";
import { locateSessionData } from "../../state/locate.js";
import { sessionLogPath } from "../../state/paths.js";
import type { ScopeState, SessionState } from "../../state/schema.js";
import { FileStateStore } from "../../state/store.js";
import { defaultConfig } from "../../engine/signals.js";
import { parseCommandArgs, requireOption } from "../args.js";
import { UsageError, type CliIo } from "../io.js";

const USAGE = "utility status --session ID [--json]";

export interface SessionView {
  dir: string;
  state: SessionState | undefined;
  records: LogRecord[];
}

/** Reads a session's state and log; the log's unreadable lines are skipped. */
export function loadSession(env: CliIo["env"], sessionId: string): SessionView | undefined {
  const dir = locateSessionData(env, sessionId);
  if (!dir) return undefined;
  const state = new FileStateStore(dir).read(sessionId);
  const file = sessionLogPath(dir, sessionId);
  const records = existsSync(file) ? readLogFile(file).records : [];
  return { dir, state: state && withPendingSwitch(state), records };
}

/**
 * The `/utility on|off` the user just typed: the command's shell line runs
 * before any hook has seen the prompt's transcript line, so the switch it
 * asked for is shown as made (a wakeup's prompt never runs the command:
 * Claude Code skips slash commands for it).
 */
function withPendingSwitch(state: SessionState): SessionState {
  const pending = Object.values(state.prompts ?? {}).filter((p) => p.switch !== undefined).at(-1);
  return pending ? { ...state, manualGate: pending.switch === "on" } : state;
}

function describeScope(name: string, session: SessionState, scope: ScopeState, ref: ScopeRef, records: LogRecord[]): string[] {
  const gate = effectiveGate(session, scope, ref);
  const config = gate?.config ?? defaultConfig();
  const gating = gate
    ? `gated by ${gate.file} (floor ${config.floor}, λ ${config.lambdas.join(",")})${gate.problem ? `; INVALID opt-in: ${gate.problem}` : ""}`
    : "not gated";
  const lines = [`${name}: task ${scope.task}, step ${scope.step} of ${config.maxSteps}, ${scope.refusals} refused; ${gating}${scope.ended ? "; ended" : ""}`];
  const last = [...records].reverse().find((r) => r.report && (ref.agentId ? r.agentId === ref.agentId : !r.agentId));
  if (last?.report) {
    const r = last.report;
    lines.push(
      `  last report: ${r.action} U=${r.utility} (Gain ${r.gain}, StepCost ${r.stepCost}, Uncertainty ${r.uncertainty}, Redundancy ${r.redundancy}) → ${last.decision}${last.rule ? ` (${last.rule})` : ""}`,
    );
  }
  return lines;
}

/** The text `/utility status` shows: scope, task, step, budget, gating and the last report, per scope. */
export function renderStatus(sessionId: string, view: SessionView | undefined): string {
  if (!view?.state) return `utility: no record of session ${sessionId} yet (no tool call has been seen).\n`;
  const { state, records } = view;
  const lines = [`utility status, session ${sessionId}`, `/utility on: ${state.manualGate ? "on" : "off"}`];
  lines.push(...describeScope("main scope", state, state.main, { kind: "main", transcript: "", lines: "main" }, records));
  for (const [id, scope] of Object.entries(state.agents)) {
    lines.push(...describeScope(`subagent ${id}${scope.agentType ? ` (${scope.agentType})` : ""}`, state, scope, { kind: "agent", agentId: id, transcript: "", lines: "all" }, records));
  }
  return `${lines.join("\n")}\n`;
}

export function runStatus(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, { session: { type: "string" }, json: { type: "boolean" } }, USAGE);
  const sessionId = requireOption(values.session, "session", USAGE);
  let view: SessionView | undefined;
  try {
    view = loadSession(io.env, sessionId);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.json) io.stdout(`${JSON.stringify({ session: sessionId, dataDir: view?.dir ?? null, state: view?.state ?? null }, null, 2)}\n`);
  else io.stdout(renderStatus(sessionId, view));
  return 0;
}
