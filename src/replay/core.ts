// Offline replay: a recorded session's events through the same session machine
// the hooks run (src/engine/session/), with one declared difference of policy
// (REPLAY_POLICY). Pure: events in, findings out. The file layer is ./files.ts;
// how one session's events are replayed is ./session-replay.ts.
import type { LocatedEvent } from "../transcript/reverse-reader.js";
import { mergeByTime } from "./merge.js";
import { Replay } from "./session-replay.js";
import type { EventsReplay, ReplayOptions, SubagentFile } from "./types.js";

/** What replay does differently from the hooks, and says so in its output (SPEC §15). */
export const REPLAY_POLICY =
  "no hook input exists offline: a user line that looks typed counts as vouched for by UserPromptSubmit; skills are read from the folders the transcript names, and a subagent's definition from the folders Claude Code reads (from the folder it worked in; a plugin given with --plugin-dir is not known offline), when they still exist; a Skill call counts as loading text only (what its skill runs or forks is not judged offline); a window budget across sessions is not replayed (the other sessions' spend is not in the transcript)";

/** One file's events, replayed as one session (see replaySession for several files). */
export function replayEvents(events: Iterable<LocatedEvent>, options: ReplayOptions = {}): EventsReplay {
  const replay = new Replay(options);
  for (const event of events) replay.event(event, options.subagentFile);
  return replay.result();
}

/** One file of a session: its events (read as they are consumed), and whose they are when it is a subagent's own file. */
export interface SessionInput {
  events: Iterable<LocatedEvent>;
  subagentFile?: SubagentFile;
}

/**
 * One session's files merged in time order (the session file first, then its
 * subagents' files), through one machine, one event at a time: no file is
 * ever held whole (./merge.ts). A subagent with its own file is read from it,
 * not from its copies in the session file.
 */
export function replaySession(
  inputs: readonly SessionInput[],
  options: ReplayOptions = {},
): EventsReplay & { scopeFiles: Map<string, number>; fileLines: number[] } {
  const replay = new Replay(options);
  const own = new Set(inputs.slice(1).flatMap((input) => (input.subagentFile?.agentId !== undefined ? [input.subagentFile.agentId] : [])));
  const fileLines: number[] = [];
  for (const { event, file } of mergeByTime(
    inputs.map((input) => input.events),
    own,
    fileLines,
  ))
    replay.event(event, inputs[file]!.subagentFile, file);
  return { ...replay.result(), scopeFiles: replay.scopeFiles, fileLines };
}
