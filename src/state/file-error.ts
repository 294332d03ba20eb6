/**
 * Why a file could not be read or written, in words a user reads (SPEC §10:
 * honest errors): never a bare errno code such as `ENOENT`.
 */
const WORDS: Record<string, string> = {
  ENOENT: "no file or folder at this path",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "it is a folder, not a file",
  EACCES: "permission denied",
  EPERM: "not permitted",
  ELOOP: "too many symbolic links (or a link where none is followed)",
  ENAMETOOLONG: "the path is too long",
  EMFILE: "too many open files",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
  EBUSY: "the file is busy",
};

/** `error`'s reason: words for a known errno code, else its message's first line. */
export function fileErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && Object.hasOwn(WORDS, code)) return WORDS[code]!;
  if (typeof code === "string") return code;
  return errorLine(error);
}

/** The first line of what was thrown: an error's message, or anything else as a string (a trouble is told in one line). */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
