// Types for projects-folder.mjs, so the TypeScript tests use the same generator as the benchmark.

/** The working folders whose sessions the generator writes. */
export declare const PROJECT_DIRS: string[];

/** The folder Claude Code 2.1.328 names for a working folder. */
export declare function folderName(cwd: string): string;

export interface WrittenFolder {
  root: string;
  /** Bytes written, every file together. */
  bytes: number;
  /** Files written: session files and subagent files. */
  files: number;
  sessions: Array<{ project: string; sessionId: string; bytes: number; files: number }>;
}

/** Writes a folder laid out like ~/.claude/projects of about `bytes` bytes under `root`. */
export declare function writeProjectsFolder(root: string, options?: { bytes?: number; seed?: number; start?: number }): WrittenFolder;
