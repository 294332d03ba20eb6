/**
 * Shared pieces of the gate's end-to-end tests: the plugin under test (the
 * repository root, loaded with --plugin-dir), a fixture plugin with odd
 * opt-ins and a gated subagent, report text, and readers for what the hooks
 * wrote (the step log and the state).
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { EXAMPLE_SKILL, PLUGIN_ROOT, ROOT } from "../../support/paths.js";
import { assertRunOk, readJsonl, runClaude, type RunClaudeOptions, type RunClaudeResult } from "../support/claude.js";
import { lastToolResults, toolUse, type RecordedRequest, type ToolResult, type ToolUseBlock } from "../support/scripted-model.js";

/** A second plugin for scenarios the example skill does not cover (`ufix:budget-two`, `ufix:bad-optin`, agent `ufix:gated-helper`). */
export const FIXTURE_PLUGIN = join(ROOT, "test", "fixtures", "e2e", "ufix");

/** The Skill tool call that activates the gated example (a project skill in the run's folder, see `gateRun`). */
export const activate = (skill = "gated-example"): ToolUseBlock => toolUse("Skill", { skill });

/** Where a run's copy of the gated example lives: its project skill folder. */
export const exampleIn = (run: { cwd: string }): string => join(run.cwd, ".claude", "skills", "gated-example", "SKILL.md");

/** A short-form action report. */
export function report(action: string, utility: string | number, breakdown: string, rationale = "Scripted step."): string {
  return `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: "${rationale}"`;
}

/** Signals whose U is 0.28 with the default λ. */
export const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0";
export const ok = (action: string, rationale?: string) => report(action, "0.28", GOOD, rationale);

/** A Bash call that leaves a marker file when (and only when) it runs. */
export function touch(marker: string, id?: string): ToolUseBlock {
  return toolUse("Bash", { command: `touch ${marker}`, description: "mark" }, id);
}

const made: string[] = [];
// Registered while the importing test file is collected: runs after all its tests.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder (for marker files, or a session's working folder), removed after the test file. */
export function markerDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "utility-marks-")));
  made.push(dir);
  return dir;
}

export const ran = (marker: string) => existsSync(marker);

/**
 * Runs claude with the plugin (and the fixture plugin) loaded and the gated
 * example installed as a project skill; Bash, Read and Agent allowed unless told otherwise.
 */
export function gateRun(opts: Omit<RunClaudeOptions, "pluginDir"> & { fixtures?: boolean }): Promise<RunClaudeResult> {
  const { fixtures, ...rest } = opts;
  return runClaude({
    allowedTools: ["Bash", "Read", "Agent"],
    whenExhausted: "error",
    projectSkills: [EXAMPLE_SKILL],
    ...rest,
    pluginDir: fixtures ? [PLUGIN_ROOT, FIXTURE_PLUGIN] : PLUGIN_ROOT,
  });
}

/**
 * `/utility on` typed first (the plugin answers it on screen: no model turn,
 * `-p` ends), then `opts.prompt` in the same session, resumed: the way a user
 * switches the gate on before asking. The run returned is the second; its
 * clean-up removes both.
 */
export async function afterTyped(
  typed: string,
  opts: RunClaudeOptions,
  run: (o: RunClaudeOptions) => Promise<RunClaudeResult> = runClaude,
): Promise<RunClaudeResult & { first: RunClaudeResult }> {
  const first = await run({ ...opts, prompt: typed, script: [], whenExhausted: "error" });
  expect(assertRunOk(first).num_turns, first.stdout).toBe(0);
  const second = await run({
    ...opts,
    home: first.home,
    cwd: first.cwd,
    extraArgs: [...(opts.extraArgs ?? []), "--resume", first.sessionId!],
  });
  return {
    ...second,
    first,
    cleanup: () => {
      second.cleanup();
      first.cleanup();
    },
  };
}

/** The plugin's data folder in a run's scratch HOME (--plugin-dir: `<name>-inline`). */
export function dataDirOf(run: RunClaudeResult, folder = "utility-inline"): string {
  return join(run.home, ".claude", "plugins", "data", folder);
}

export interface Rec {
  event: string;
  decision: string;
  rule?: string;
  reason?: string;
  tool?: string;
  toolUseId?: string;
  step: number;
  task: number;
  maxSteps: number;
  scope: string;
  agentId?: string;
  agentType?: string;
  gated: boolean;
  gatedBy?: string;
  report?: {
    action: string;
    utility: number;
    gain: number;
    stepCost: number;
    uncertainty: number;
    redundancy: number;
    rationale: string;
    override?: unknown;
  };
  repeat?: { ofStep: number; toolUseId?: string };
  selection?: { strategy: string; candidates: number; chosen: string };
  latencyMs: number;
  [k: string]: unknown;
}

/** The session's step log. */
export function logOf(run: RunClaudeResult, folder?: string): Rec[] {
  return readJsonl(join(dataDirOf(run, folder), "sessions", `${run.sessionId}.jsonl`));
}

/** The PreToolUse records, optionally of one tool. */
export function preRecords(run: RunClaudeResult, tool?: string, folder?: string): Rec[] {
  return logOf(run, folder).filter((r) => r.event === "PreToolUse" && (tool === undefined || r.tool === tool));
}

/** The record of one call. */
export function recordOf(run: RunClaudeResult, id: string, folder?: string): Rec {
  const found = logOf(run, folder).find((r) => r.event === "PreToolUse" && r.toolUseId === id);
  if (!found) throw new Error(`no PreToolUse record for ${id}; log:\n${JSON.stringify(logOf(run, folder), null, 1)}`);
  return found;
}

/** The session's state file. */
export function stateOf(run: RunClaudeResult, folder?: string): any {
  return JSON.parse(readFileSync(join(dataDirOf(run, folder), "state", `${run.sessionId}.json`), "utf8"));
}

/** The id the scripted model gave a tool_use block it sent. */
export function idOf(block: ToolUseBlock): string {
  if (!block.id) throw new Error("tool_use block without an id: give one in the script");
  return block.id;
}

/** Fixed, readable tool_use ids, unique per test process. */
let n = 0;
export function id(label: string): string {
  n += 1;
  return `toolu_gate_${label}_${process.pid}_${n}`;
}

/** What the model was told about call `toolUseId`, looked up in every later request. */
export function resultFor(requests: RecordedRequest[], toolUseId: string): ToolResult {
  for (const req of requests) {
    const found = lastToolResults(req).find((r) => r.tool_use_id === toolUseId);
    if (found) return found;
  }
  throw new Error(`no tool_result for ${toolUseId}`);
}

/** Asserts that the gate refused `toolUseId`: in permission_denials, as a hook error the model sees, in the log; returns the refusal text. */
export function expectRefused(
  run: RunClaudeResult,
  toolUseId: string,
  tool: string,
  rule: string,
  requests = run.model.mainRequests(),
): string {
  const result = assertRunOk(run);
  expect(result.permission_denials.map((d) => d.tool_use_id)).toContain(toolUseId);
  const seen = resultFor(requests, toolUseId);
  expect(seen.is_error).toBe(true);
  expect(seen.text.startsWith(`PreToolUse:${tool} hook error: utility gate: `)).toBe(true);
  const rec = recordOf(run, toolUseId);
  expect(rec).toMatchObject({ decision: "refused", rule, tool, gated: true });
  expect(seen.text).toContain(rec.reason!);
  return seen.text;
}

/** Asserts that the gate let `toolUseId` through: not denied, a normal result, a `passed` record (or `observed` when ungated). */
export function expectPassed(
  run: RunClaudeResult,
  toolUseId: string,
  decision: "passed" | "observed" = "passed",
  requests = run.model.mainRequests(),
): Rec {
  const result = assertRunOk(run);
  expect(result.permission_denials.map((d) => d.tool_use_id)).not.toContain(toolUseId);
  expect(resultFor(requests, toolUseId).is_error).toBe(false);
  const rec = recordOf(run, toolUseId);
  expect(rec.decision).toBe(decision);
  expect(rec.rule).toBeUndefined();
  return rec;
}
