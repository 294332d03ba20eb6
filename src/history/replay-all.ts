// The file layer of `utility replay` with no transcript: which sessions to
// read (a project folder, every project, since a date), reading them one
// session at a time, streamed, through the session machine, and handing what
// the history keeps of each (src/history/ sessionFindings: per-task figures
// and repeats, plain data) on, so a session's replay is dropped once read.
import type { UserSettings } from "../engine/session/decide.js";
import { DEFAULT_PRICES, withOverride } from "../engine/prices.js";
import { sessionFindings } from "./findings.js";
import { HistoryBuilder, type HistoryReport } from "./report.js";
import { REPLAY_POLICY, replaySession } from "../replay/core.js";
import { ReplayInputError, sessionInputs, skillSource, type ReadCounter } from "../replay/files.js";
import { nodeSha256Hex } from "../hash/node-sha256.js";
import { sessionsIn, type SessionFiles } from "../replay/projects.js";
import { TOKEN_ESTIMATE } from "../replay/types.js";
import type { SubagentDefinitions } from "../replay/agent-definitions.js";

/** Where reading stands, for a progress line. */
export interface HistoryProgress {
  bytes: number;
  totalBytes: number;
  sessions: number;
  totalSessions: number;
}

export interface HistoryRequest {
  what: HistoryReport["read"]["what"];
  /** The project folders to read. */
  folders: string[];
  /** Tasks started before this are left out (and sessions not written since are not read). */
  since?: { ms: number; text: string };
  user?: UserSettings;
  pluginId: string;
  /** Called while reading (often: the caller decides when to show it). */
  progress?: (at: HistoryProgress) => void;
  /** The subagents' types and definitions, read before (src/replay/agent-definitions.ts). */
  agents?: SubagentDefinitions;
}

/** The sessions a request reads, oldest first within each folder. */
export function plannedSessions(request: Pick<HistoryRequest, "folders" | "since">): SessionFiles[] {
  return request.folders.flatMap((folder) => sessionsIn(folder, request.since?.ms));
}

/** Replays every session of the request, one at a time, into one history. */
export function replayHistory(request: HistoryRequest): HistoryReport & { read: { unreadable: string[] } } {
  const sessions = plannedSessions(request);
  const prices = withOverride(DEFAULT_PRICES, request.user?.prices);
  const history = new HistoryBuilder({
    prices,
    pluginId: request.pluginId,
    policy: REPLAY_POLICY,
    tokenEstimate: TOKEN_ESTIMATE,
    ...(request.since ? { sinceMs: request.since.ms } : {}),
  });
  const at: HistoryProgress = {
    bytes: 0,
    totalBytes: sessions.reduce((n, s) => n + s.bytes, 0),
    sessions: 0,
    totalSessions: sessions.length,
  };
  const counter: ReadCounter = { bytes: 0, tick: () => request.progress?.({ ...at, bytes: counter.bytes }) };
  const unreadable: string[] = [];
  for (const session of sessions) {
    const files = [{ path: session.path, subagent: false }, ...session.subagents.map((path) => ({ path, subagent: true }))];
    try {
      const replayed = replaySession(sessionInputs(files, counter, request.agents), {
        skillSource,
        sha256: nodeSha256Hex,
        ...(request.user ? { user: request.user } : {}),
      });
      history.add(
        sessionFindings(
          replayed,
          { session: session.sessionId, project: session.project, path: session.path },
          { count: files.length, bytes: session.bytes },
          prices,
        ),
      );
    } catch (error) {
      if (!(error instanceof ReplayInputError)) throw error;
      unreadable.push(error.message);
    }
    at.sessions += 1;
    request.progress?.({ ...at, bytes: counter.bytes });
  }
  const report = history.report({
    what: request.what,
    projects: [...new Set(sessions.map((s) => s.project))],
    ...(request.since ? { since: request.since.text } : {}),
  });
  return { ...report, read: { ...report.read, unreadable } };
}
