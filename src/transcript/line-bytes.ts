// Shared pieces of the forward and backward line readers. Pure apart from ByteSource.read.
import type { ByteSource } from "./source.js";

export const DEFAULT_CHUNK_SIZE = 64 * 1024;

/** One line's bytes, without its "\n". */
export interface LineBytes {
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Length in bytes, without the "\n" (a "\r" of CRLF is still included). */
  length: number;
  /** The bytes, or null when the line was longer than the limit and was skipped unread into memory. */
  bytes: Uint8Array | null;
  /** False only for a last line with no "\n" after it: possibly still being written. */
  terminated: boolean;
}

export interface LineReadOptions {
  chunkSize?: number;
  maxLineBytes?: number;
}

/** Collects the pieces of one line as chunks arrive; gives up keeping bytes past the limit. */
export class PendingLine {
  private pieces: Uint8Array[] = [];
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  add(piece: Uint8Array, atStart: boolean): void {
    if (piece.length === 0) return;
    this.total += piece.length;
    if (this.total > this.maxBytes) {
      this.pieces = [];
      return;
    }
    if (atStart) this.pieces.unshift(piece);
    else this.pieces.push(piece);
  }

  /** The line collected so far, or null for an empty line; resets for the next line. */
  take(offset: number, terminated: boolean): LineBytes | null {
    const length = this.total;
    const bytes = length > this.maxBytes ? null : joinPieces(this.pieces, length);
    this.pieces = [];
    this.total = 0;
    return length === 0 ? null : { offset, length, bytes, terminated };
  }
}

function joinPieces(pieces: Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1 && pieces[0]) return pieces[0];
  return Buffer.concat(pieces, length);
}

/** Read `length` bytes at `position` into a fresh buffer (fresh: lines handed out keep pointing into it). */
export function readChunk(source: ByteSource, position: number, length: number): Buffer {
  const chunk = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const n = source.read(chunk.subarray(filled), position + filled);
    if (n <= 0) break; // the file shrank under us: the zeros left make the lines invalid, so they are skipped
    filled += n;
  }
  return chunk;
}
