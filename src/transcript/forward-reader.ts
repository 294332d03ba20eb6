// Read a transcript forward from a byte offset: for replay and for incremental reading.
import { DEFAULT_CHUNK_SIZE, PendingLine, readChunk, type LineBytes, type LineReadOptions } from "./line-bytes.js";
import { MAX_LINE_BYTES, parseLineBytes } from "./line.js";
import type { LocatedEvent } from "./reverse-reader.js";
import { openFileSource, withSource, type ByteSource, type TranscriptSource } from "./source.js";

const NEWLINE = 0x0a;

/** A line read forward, with its 1-based number counted from where reading started. */
export type NumberedLine = LineBytes & { lineNo: number };

/** Lines from `offset` to the end as it was when opened, including an unterminated last line. */
export function* readLinesForward(source: TranscriptSource, offset = 0, options: LineReadOptions = {}): Generator<NumberedLine> {
  const opened = typeof source === "string" ? openFileSource(source) : null;
  try {
    yield* linesForward(opened ?? (source as ByteSource), offset, options);
  } finally {
    opened?.close();
  }
}

function* linesForward(source: ByteSource, offset: number, options: LineReadOptions): Generator<NumberedLine> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const pending = new PendingLine(options.maxLineBytes ?? MAX_LINE_BYTES);
  let lineStart = offset;
  let lineNo = 1;
  for (let position = offset; position < source.size;) {
    const chunk = readChunk(source, position, Math.min(chunkSize, source.size - position));
    let from = 0;
    for (let newline = chunk.indexOf(NEWLINE, from); newline !== -1; newline = chunk.indexOf(NEWLINE, from)) {
      pending.add(chunk.subarray(from, newline), false);
      const line = pending.take(lineStart, true);
      if (line) yield { ...line, lineNo };
      lineNo++;
      from = newline + 1;
      lineStart = position + from;
    }
    pending.add(chunk.subarray(from), false);
    position += chunk.length;
  }
  const tail = pending.take(lineStart, false);
  if (tail) yield { ...tail, lineNo };
}

export interface ForwardRead {
  /** Complete lines only. */
  lines: NumberedLine[];
  /** Where to continue next time: the end of the last complete line (the start of a partial one). */
  nextOffset: number;
  /** The file is smaller than `offset`: it was replaced or truncated, and the caller's position is stale. */
  shrunk: boolean;
}

/** Complete lines from `offset`; a final line without its "\n" is left for the next read. */
export function readForwardFrom(source: TranscriptSource, offset: number, options: LineReadOptions = {}): ForwardRead {
  return withSource(source, (bytes) => {
    if (offset > bytes.size) return { lines: [], nextOffset: bytes.size, shrunk: true };
    const lines: NumberedLine[] = [];
    let nextOffset = bytes.size;
    for (const line of linesForward(bytes, offset, options)) {
      if (line.terminated) lines.push(line);
      else nextOffset = line.offset;
    }
    return { lines, nextOffset, shrunk: false };
  });
}

/** Parsed events of complete lines from `offset`, with the offset to continue from. */
export function readEventsFrom(
  source: TranscriptSource,
  offset: number,
  options: LineReadOptions = {},
): { events: LocatedEvent[]; nextOffset: number; shrunk: boolean } {
  const read = readForwardFrom(source, offset, options);
  return { events: read.lines.flatMap(locatedEvents), nextOffset: read.nextOffset, shrunk: read.shrunk };
}

/**
 * Every event of the file, oldest first, as it is read: a line is parsed only
 * when the caller asks for its events, so a whole file is never held (replay
 * reads months of sessions this way). Tolerant of anything: a torn last line
 * is simply skipped. The file is closed when the caller stops iterating.
 */
export function* eventsForward(source: TranscriptSource, options: LineReadOptions = {}): Generator<LocatedEvent> {
  for (const line of readLinesForward(source, 0, options)) yield* locatedEvents(line);
}

/** Every event of the file in an array (small files, tests); replay streams with eventsForward. */
export function readAll(source: TranscriptSource, options: LineReadOptions = {}): LocatedEvent[] {
  return [...eventsForward(source, options)];
}

function locatedEvents(line: NumberedLine): LocatedEvent[] {
  const events = (parseLineBytes(line.bytes) ?? []) as LocatedEvent[];
  // The parser's events are new and nobody else's: placed where they were read without a copy each (replay reads millions).
  for (const event of events) {
    event.offset = line.offset;
    event.lineNo = line.lineNo;
  }
  return events;
}
