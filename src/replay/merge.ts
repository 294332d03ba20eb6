// One session's files (the session file and its subagents' files) as one
// stream of events in the order they happened, read as they are consumed:
// one event of each file is held at a time, never a whole file. Pure apart
// from pulling the iterators it is given.
import type { LocatedEvent } from "../transcript/reverse-reader.js";

export interface MergedEvent {
  event: LocatedEvent;
  /** Which input it came from (0: the session file). */
  file: number;
}

/** Where each input stands: its next event and the latest time seen in it so far. */
interface Head {
  events: Iterator<LocatedEvent>;
  next: LocatedEvent | undefined;
  at: number;
  /** The highest line number read from it (every event, kept or left out). */
  lines: number;
}

/**
 * The inputs' events in the order they happened: each input in its own
 * order, merged by time (a line's timestamp, or the latest one before it in
 * its input; ties go to the earlier input). A subagent that has its own file
 * (`ownFiles`, its agent id) is read from it: its copies in the session file
 * (agent_progress, 2.1) are left out, so nothing counts twice. `lines[i]` is
 * the highest line number read from input i so far.
 */
export function* mergeByTime(
  inputs: ReadonlyArray<Iterable<LocatedEvent>>,
  ownFiles: ReadonlySet<string>,
  lines: number[] = [],
): Generator<MergedEvent> {
  const heads: Head[] = inputs.map((events) => ({
    events: events[Symbol.iterator](),
    next: undefined,
    at: Number.NEGATIVE_INFINITY,
    lines: 0,
  }));
  const leftOut = (event: LocatedEvent, file: number) =>
    file === 0 && event.sidechain && event.agentId !== undefined && ownFiles.has(event.agentId);
  const advance = (file: number): void => {
    const head = heads[file]!;
    for (;;) {
      const step = head.events.next();
      if (step.done) {
        head.next = undefined;
        return;
      }
      const event = step.value;
      if ((event.lineNo ?? 0) > head.lines) lines[file] = head.lines = event.lineNo ?? 0;
      if (leftOut(event, file)) continue;
      const time = event.timestamp !== undefined ? Date.parse(event.timestamp) : Number.NaN;
      if (Number.isFinite(time) && time > head.at) head.at = time;
      head.next = event;
      return;
    }
  };
  try {
    heads.forEach((_, file) => {
      lines[file] = 0;
      advance(file);
    });
    for (;;) {
      let pick = -1;
      heads.forEach((head, file) => {
        if (head.next !== undefined && (pick < 0 || head.at < heads[pick]!.at)) pick = file;
      });
      if (pick < 0) return;
      const event = heads[pick]!.next!;
      advance(pick);
      yield { event, file: pick };
    }
  } finally {
    for (const head of heads) head.events.return?.();
  }
}
