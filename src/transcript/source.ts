// Where transcript bytes come from. The only file in src/transcript that touches the file system.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

/** Random-access bytes. Sync on purpose: hooks are short-lived and sync fs is the fastest path. */
export interface ByteSource {
  /** Size in bytes, taken once when the source is opened (a transcript only grows while we read it). */
  readonly size: number;
  /** Bytes handed out so far; tests use it to prove the hot path reads only the end of a file. */
  readonly bytesRead: number;
  /** Fill `target` from `position`; returns how many bytes were read (0 at the end). */
  read(target: Uint8Array, position: number): number;
  close(): void;
}

/** A path, or a source the caller opened (and will close). */
export type TranscriptSource = string | ByteSource;

export function openFileSource(path: string): ByteSource {
  return openSource(path, constants.O_RDONLY | constants.O_NONBLOCK).source;
}

/** A transcript file opened for reading, and which file it is (device and inode). */
export interface OpenedTranscript {
  source: ByteSource;
  id: string;
}

/**
 * Opens a scope's own transcript as the hooks must: never through a link
 * (O_NOFOLLOW: a link in its place fails with ELOOP), never blocking on a
 * FIFO (O_NONBLOCK), and only a regular file (ENOTREG otherwise). Undefined
 * when there is no file there (ENOENT).
 */
export function openTranscript(path: string): OpenedTranscript | undefined {
  try {
    return openSource(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function openSource(path: string, flags: number): OpenedTranscript {
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
  const fd = openSync(path, flags);
  let size: number;
  let id: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "ENOTREG" });
    size = stat.size;
    id = `${stat.dev}:${stat.ino}`;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let bytesRead = 0;
  let open = true;
  const source: ByteSource = {
    size,
    get bytesRead() {
      return bytesRead;
    },
    read(target, position) {
      const length = Math.min(target.length, size - position);
      if (length <= 0) return 0;
      const n = readSync(fd, target, 0, length, position);
      bytesRead += n;
      return n;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
  return { source, id };
}

/** An in-memory source, for tests and for text already in hand. */
export function bufferSource(bytes: Uint8Array): ByteSource {
  let bytesRead = 0;
  return {
    size: bytes.length,
    get bytesRead() {
      return bytesRead;
    },
    read(target, position) {
      const chunk = bytes.subarray(position, position + target.length);
      target.set(chunk);
      bytesRead += chunk.length;
      return chunk.length;
    },
    close() {},
  };
}

/** Run `use` on the source; a path is opened here and closed afterwards, a caller's source is left open. */
export function withSource<T>(source: TranscriptSource, use: (bytes: ByteSource) => T): T {
  if (typeof source !== "string") return use(source);
  const opened = openFileSource(source);
  try {
    return use(opened);
  } finally {
    opened.close();
  }
}

/** A transcript's size, or -1 when it is missing or not a regular file (a folder, or a FIFO that would block a read). */
export function transcriptSize(path: string): number {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : -1;
  } catch {
    return -1;
  }
}
