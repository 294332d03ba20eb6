// Read a transcript from its end, newest line first, only as far as the caller iterates.
import { DEFAULT_CHUNK_SIZE, PendingLine, readChunk, type LineBytes, type LineReadOptions } from "./line-bytes.js";
import type { TranscriptEvent } from "./line-events.js";
import { MAX_LINE_BYTES, parseLineBytes } from "./line.js";
import { openFileSource, type ByteSource, type TranscriptSource } from "./source.js";

/** An event and where its line starts; `lineNo` (1-based) only when read forward from the start. */
export type LocatedEvent = TranscriptEvent & { offset: number; lineNo?: number };

const NEWLINE = 0x0a;

/**
 * Complete lines, newest first. Lines are split on the byte 0x0A and handed out whole,
 * so a multi-byte character split across chunks is never decoded in halves. Stops reading
 * as soon as the caller stops iterating (the file is closed then, when we opened it).
 */
export function* readLinesBackward(source: TranscriptSource, options: LineReadOptions = {}): Generator<LineBytes> {
  const opened = typeof source === "string" ? openFileSource(source) : null;
  try {
    yield* linesBackward(opened ?? (source as ByteSource), options);
  } finally {
    opened?.close();
  }
}

function* linesBackward(source: ByteSource, options: LineReadOptions): Generator<LineBytes> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const pending = new PendingLine(options.maxLineBytes ?? MAX_LINE_BYTES);
  // Only the text after the file's last "\n" can be unterminated.
  let terminated = false;
  for (let end = source.size; end > 0;) {
    const start = Math.max(0, end - chunkSize);
    const chunk = readChunk(source, start, end - start);
    let cut = chunk.length; // chunk[0, cut) is not handed out yet
    while (cut > 0) {
      const newline = chunk.lastIndexOf(NEWLINE, cut - 1);
      if (newline === -1) break;
      pending.add(chunk.subarray(newline + 1, cut), true);
      const line = pending.take(start + newline + 1, terminated);
      if (line) yield line;
      terminated = true;
      cut = newline;
    }
    pending.add(chunk.subarray(0, cut), true);
    end = start;
  }
  const first = pending.take(0, terminated);
  if (first) yield first;
}

/** Parsed events, newest first (events of one line in reverse order too). Skipped lines yield nothing. */
export function* readEventsBackward(source: TranscriptSource, options: LineReadOptions = {}): Generator<LocatedEvent> {
  for (const line of readLinesBackward(source, options)) {
    const events = parseLineBytes(line.bytes);
    if (!events) continue;
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i];
      if (event) yield { ...event, offset: line.offset };
    }
  }
}
