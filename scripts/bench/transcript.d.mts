// Types for transcript.mjs, so the TypeScript tests (test/perf) use the same generator as the benchmark.

/** The action report every synthetic message carries before its calls. */
export declare const REPORT: string;

export interface WrittenTranscript {
  /** The id of the last call written, whose result is not written yet. */
  prevId: string;
  /** Appends prev's result and one message with the report and a Bash call per id; returns the bytes appended. */
  finish(ids: string[]): number;
}

export interface TranscriptOptions {
  /** Writes a skill activation ("Base directory for this skill: …") after the first prompt. */
  skillFolder?: string;
  sessionId?: string;
  seed?: number;
  /** False: the last call's message has no report. */
  prevReport?: boolean;
}

/** Writes a realistic Claude Code 2.1 transcript of about `bytes` bytes to `file`. */
export declare function writeTranscript(file: string, bytes: number, options?: TranscriptOptions): WrittenTranscript;
