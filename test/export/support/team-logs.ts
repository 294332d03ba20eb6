// Step logs for a simulated team, made from the hand-made fixture
// (test/fixtures/logs/gated-session.jsonl): each developer's sessions get their
// own ids and dates, some records left out, and the spend a task's calls
// report, so the developers' figures differ and each can be counted apart.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../support/paths.js";
import { promptKey } from "../../../src/ingest/prompts.js";

/** The prompt id Claude Code would have given a session's task's prompt (the log keeps its digest). */
export const promptIdOf = (session: string, task: number) => `prompt-${session.slice(0, 8)}-${task}`;

const FIXTURE = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");

export interface SessionSpec {
  session: string;
  /** The day the records are moved to (YYYY-MM-DD). */
  day: string;
  /** Record indexes (0-based, of the fixture's 25 records) left out. */
  drop?: number[];
  /** Tokens per step of the main scope: the task spend grows by this much at each call. */
  tokensPerStep: number;
  /** An extra budget refusal appended to task 2. */
  budgetStop?: boolean;
}

function spendAt(tokens: number) {
  return {
    tokens: { input: tokens, output: Math.round(tokens / 10), cacheCreation: 0, cacheRead: 0 },
    byModel: { "claude-sonnet-4-5": { input: tokens, output: Math.round(tokens / 10), cacheCreation: 0, cacheRead: 0 } },
    toolCalls: 0,
    agentsLaunched: 0,
  };
}

/** One session's log text, made from the fixture by the spec. */
export function sessionLog(spec: SessionSpec): string {
  const records = readFileSync(FIXTURE, "utf8")
    .split("\n")
    .map((line) => {
      try {
        const r = JSON.parse(line);
        return r.v === 1 ? r : undefined;
      } catch {
        return undefined;
      }
    })
    .filter((r) => r !== undefined);
  const kept = records.filter((_, i) => !(spec.drop ?? []).includes(i));
  const out = kept.map((r: any) => {
    const record = { ...r, session: spec.session, time: r.time.replace(/^\d{4}-\d\d-\d\d/, spec.day) };
    if (record.event === "UserPromptSubmit") record.promptId = promptKey(promptIdOf(spec.session, record.task));
    if (record.event === "PreToolUse" && record.step > 0) record.scopeSpend = spendAt(record.step * spec.tokensPerStep);
    return record;
  });
  if (spec.budgetStop) {
    const last = out.filter((r: any) => r.task === 2 && r.agentId === undefined).at(-1);
    out.push({
      ...last,
      event: "PreToolUse",
      time: last.time.replace(/\.\d+Z$/, ".999Z"),
      tool: "Bash",
      toolUseId: `toolu_budget_${spec.session.slice(0, 8)}`,
      decision: "refused",
      rule: "budget_spent",
      reason: "utility gate: the task's token budget is spent",
      report: undefined,
      repeat: undefined,
      outcome: undefined,
      latencyMs: 12,
    });
  }
  return `${out.map((r: any) => JSON.stringify(r)).join("\n")}\n`;
}

/** Writes a developer's sessions into `<dir>/sessions/`, as the hooks would, and returns the files. */
export function writeDeveloperLogs(dir: string, specs: readonly SessionSpec[]): string[] {
  mkdirSync(join(dir, "sessions"), { recursive: true });
  return specs.map((spec) => {
    const file = join(dir, "sessions", `${spec.session}.jsonl`);
    writeFileSync(file, sessionLog(spec));
    return file;
  });
}
