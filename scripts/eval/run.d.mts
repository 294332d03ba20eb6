// Types for the plain-JavaScript evaluation harness (run.mjs), for its test.
export interface Situation {
  id: string;
  scope: "self" | "subagent" | "dispatch";
  model: string;
  /** The skill that gates it (activated by the Skill tool, or typed as a slash command with `slash`), or the agent definition it runs under. */
  gate: { skill?: string; agent?: string; slash?: boolean };
  /** A subagent's parent model, when it differs. */
  parentModel?: string;
  prompt: string;
  prelude?: Array<{ tool: string; input: unknown; text?: string; result?: string }>;
  next?: string;
  planted?: string;
  call: { tool: string; input: unknown };
  result?: string;
  expect: "call" | "end" | "either";
}
export interface Attempt {
  planted: boolean;
  call?: string;
  ok: boolean;
  got: string;
  rule?: string;
  message?: string;
  tokens: number;
  reportTokens: number;
  /** The report's StepCost against the newest line's for its action (line null: no line had come). */
  stepCost?: { action: string; written: number; line: number | null; fromLine?: boolean };
  context?: string;
}
export interface SituationResult {
  id: string;
  read: { files: string[]; words: number };
  /** Where the reader said it had to guess. */
  guesses?: string[];
  scope: Situation["scope"];
  expect: Situation["expect"];
  firstTry: boolean;
  secondTry?: boolean;
  attempts: Attempt[];
}
export const ROOT: string;
export const SITUATIONS_DIR: string;
export const GUIDANCE_FILES: string[];
export function messageOf(readerText: string): string;
export function guessesOf(readerText: string): string[];
export function lastLine(texts: readonly unknown[]): string | undefined;
export function lineCosts(line: string | undefined): Record<string, number>;
export function readerFiles(): string[];
export function readerPromptDocument(): Promise<string>;
export function callOf(readerText: string): { tool: string; input: unknown } | undefined;
export function filesRead(readerText: string): { files: string[]; words: number };
export function loadSituation(file: string): Situation;
export function allSituations(): Situation[];
export function tokens(text: string): Promise<number>;
export function lastReportText(text: string): string;
export function runSituation(situation: Situation, readerTexts: string[]): Promise<SituationResult>;
export function plantedRefusal(situation: Situation): Promise<string | undefined>;
export function readerPrompt(situation: Situation): Promise<string>;
export function summarize(results: SituationResult[]): Record<string, unknown>;
