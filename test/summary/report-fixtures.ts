// Sessions for the HTML report's tests and screenshots, built step by step as
// the hooks would log them: (a) a gated session with refusals, a blocked stop,
// a respond at the end, budgets and spend; (b) an ungated one; (c) a long one.
// Deterministic: no clock, no randomness.
import type { Budgets } from "../../src/engine/budget.js";
import type { Action, RuleId, Scope } from "../../src/engine/vocabulary.js";
import type { LoggedReport, LogRecord } from "../../src/log/record.js";
import type { NoProgressCounts } from "../../src/summary/report-view.js";

export interface ScopeSpec {
  scope: Scope;
  agentId?: string;
  agentType?: string;
  gatedBy?: string;
  maxSteps: number;
  floor?: number;
  budgets?: Budgets;
  model?: string;
}

const LAMBDAS: [number, number, number] = [1, 0.5, 0.8];

/** A report whose Utility agrees with its signals under λ = [1, 0.5, 0.8]. */
export function report(
  action: Action,
  gain: number,
  stepCost: number,
  uncertainty: number,
  redundancy: number,
  rationale: string,
): LoggedReport {
  const utility = Math.round((gain - LAMBDAS[0] * stepCost - LAMBDAS[1] * uncertainty - LAMBDAS[2] * redundancy) * 100) / 100;
  return { action, utility, gain, stepCost, uncertainty, redundancy, rationale };
}

interface CallOptions {
  refused?: RuleId;
  reason?: string;
  repeatOf?: number;
  /** A second call of the message before: it shares that message's tokens. */
  sameMessage?: boolean;
}

/** Appends records as the hooks would: steps count per scope and task, each call's message spends. */
export class SessionWriter {
  readonly records: LogRecord[] = [];
  private readonly steps = new Map<string, number>();
  private seconds = 0;
  private message = 0;

  constructor(readonly session: string) {}

  private key(spec: ScopeSpec, task: number) {
    return `${spec.agentId ?? "main"}#${task}`;
  }

  private base(spec: ScopeSpec, task: number, event: LogRecord["event"]): Omit<LogRecord, "decision"> {
    this.seconds += 7;
    const time = new Date(Date.UTC(2026, 2, 2, 10, 0, 0) + this.seconds * 1000).toISOString();
    return {
      v: 1,
      time,
      event,
      session: this.session,
      scope: spec.scope,
      ...(spec.agentId ? { agentId: spec.agentId } : {}),
      ...(spec.agentType ? { agentType: spec.agentType } : {}),
      task,
      step: this.steps.get(this.key(spec, task)) ?? 0,
      maxSteps: spec.maxSteps,
      ...(spec.floor !== undefined ? { floor: spec.floor } : {}),
      lambdas: LAMBDAS,
      gated: spec.gatedBy !== undefined,
      ...(spec.gatedBy ? { gatedBy: spec.gatedBy } : {}),
      ...(spec.budgets ? { budgets: spec.budgets } : {}),
      latencyMs: 20 + (this.seconds % 17),
    };
  }

  private spend(spec: ScopeSpec, sameMessage: boolean): NonNullable<LogRecord["spend"]> {
    if (!sameMessage) this.message += 1;
    const m = this.message;
    return {
      messageId: `msg_${String(m).padStart(3, "0")}`,
      model: spec.model ?? "claude-sonnet-4-5",
      tokens: { input: 3 + (m % 5), output: 120 + ((m * 37) % 260), cacheCreation: 900 + ((m * 53) % 700), cacheRead: 15_000 + 1_400 * m },
    };
  }

  prompt(spec: ScopeSpec, task: number): this {
    this.records.push({ ...this.base(spec, task, "UserPromptSubmit"), decision: "observed" });
    return this;
  }

  call(spec: ScopeSpec, task: number, tool: string, logged: LoggedReport | undefined, options: CallOptions = {}): this {
    const key = this.key(spec, task);
    if (!options.refused) this.steps.set(key, (this.steps.get(key) ?? 0) + 1);
    const toolUseId = `toolu_${String(this.records.length + 1).padStart(4, "0")}`;
    this.records.push({
      ...this.base(spec, task, "PreToolUse"),
      tool,
      toolUseId,
      inputDigest: `d${this.records.length}`,
      decision: options.refused ? "refused" : spec.gatedBy ? "passed" : "observed",
      ...(options.refused ? { rule: options.refused, reason: options.reason ?? `refused: ${options.refused}` } : {}),
      ...(logged ? { report: logged } : {}),
      ...(options.repeatOf !== undefined ? { repeat: { ofStep: options.repeatOf } } : {}),
      spend: this.spend(spec, options.sameMessage ?? false),
    });
    if (!options.refused)
      this.records.push({
        ...this.base(spec, task, "Outcome"),
        toolUseId,
        decision: "observed",
        outcome: { result: "ran", resultBytes: 800 + this.records.length * 31, durationMs: 40, learnedBy: "PostToolUse" },
      });
    return this;
  }

  end(spec: ScopeSpec, task: number, logged: LoggedReport | undefined, blocked = false): this {
    this.records.push({
      ...this.base(spec, task, spec.agentId ? "SubagentStop" : "Stop"),
      decision: blocked ? "blocked" : "observed",
      ...(logged ? { report: logged } : {}),
      ...(blocked ? { reason: `utility gate: your last report selected ${logged?.action} but no call was made.` } : {}),
      spend: this.spend(spec, false),
    });
    return this;
  }
}

const SKILL = "/home/ana/.claude/skills/careful-refactor/SKILL.md";

/** (a) Gated, with refusals (with and without a report), an override under the floor, a blocked stop, a respond at the end, budgets. */
export function gatedSession(): { records: LogRecord[]; noProgress: Record<string, NoProgressCounts> } {
  const main: ScopeSpec = {
    scope: "self",
    gatedBy: SKILL,
    maxSteps: 12,
    floor: -0.5,
    budgets: { tokenBudget: 450_000, costBudgetUsd: 0.3 },
  };
  const sub: ScopeSpec = { scope: "subagent", agentId: "a7f3c2e1", agentType: "Explore", maxSteps: 10, model: "claude-haiku-4-5" };
  const w = new SessionWriter("3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c");
  w.prompt(main, 1)
    .call(main, 1, "Read", report("retrieve", 0.7, 0.1, 0.6, 0, "Read the parser before changing how it reads quoted fields."))
    .call(main, 1, "Grep", report("retrieve", 0.6, 0.12, 0.4, 0.1, "Find every caller of parseField."))
    .call(main, 1, "Read", report("retrieve", 0.5, 0.14, 0.3, 0, "Look at the parser again."), {
      refused: "exact_repeat",
      repeatOf: 1,
      reason: "This Read call is an exact repeat of one that ran at step 1 with nothing in between that could change its result.",
    })
    .call(main, 1, "Bash", report("retrieve", 0.6, 0.15, 0.3, 0, "Run the parser tests to see what fails."), {
      refused: "tool_not_permitted",
      reason: "Action retrieve does not permit Bash.",
    })
    .call(main, 1, "Bash", report("verify", 0.65, 0.16, 0.3, 0, "Run the parser tests first."))
    .call(main, 1, "Edit", report("tool_call", 0.8, 0.15, 0.2, 0, "Replace the naive split with a quote-aware splitter."))
    .call(main, 1, "Edit", undefined, { refused: "no_report", reason: "No action report before this Edit call." })
    .call(main, 1, "Agent", report("delegate", 0.75, 0.45, 0.6, 0.2, "Other modules may parse CSV by hand; an explorer can list them."))
    .call(sub, 1, "Glob", undefined)
    .call(sub, 1, "Read", undefined)
    .call(sub, 1, "Read", undefined, { repeatOf: 2 })
    .end(sub, 1, report("respond", 0.7, 0.1, 0.2, 0, "Three modules split CSV by hand; listed."))
    .call(main, 1, "Write", {
      ...report("tool_call", 0.85, 0.7, 0.9, 0.4, "Override: U is below the floor but Gain=0.85 — one shared splitter."),
      override: { action: "tool_call", gain: 0.85 },
    })
    .call(main, 1, "Bash", report("verify", 0.6, 0.3, 0.2, 0, "Whole suite, since three modules now share the splitter."))
    .end(main, 1, report("verify", 0.5, 0.22, 0.2, 0, "Next I lint."), true)
    .call(main, 1, "Bash", report("verify", 0.5, 0.35, 0.1, 0, "Lint, as the last report said."))
    .call(main, 1, "WebFetch", report("retrieve", 0.3, 0.4, 0.6, 0.3, "Check the RFC once more."), {
      refused: "below_floor",
      reason: "U = −0.64 is below the floor −0.5 and no candidate has Gain ≥ 0.7.",
    })
    .end(main, 1, report("respond", 0.9, 0.2, 0.1, 0, "Tests and lint pass; report the change."));
  return {
    records: w.records,
    noProgress: {
      main: { identicalOutcomes: 1, stuckLoops: 0 },
      "agent:a7f3c2e1": { identicalOutcomes: 2, stuckLoops: 1, stuckRefused: 0 },
    },
  };
}

/** (b) Ungated: the hooks only observe; no report, no floor; spend measured. */
export function ungatedSession(withSpend = true): LogRecord[] {
  const main: ScopeSpec = { scope: "self", maxSteps: 10 };
  const w = new SessionWriter("9b1d0c2e-0000-4a4a-8b8b-ungated00001");
  w.prompt(main, 1);
  for (const tool of ["Glob", "Read", "Read", "Grep", "Read", "Edit", "Bash", "Bash", "Edit"]) w.call(main, 1, tool, undefined);
  w.call(main, 1, "Bash", undefined, { repeatOf: 7 }).end(main, 1, undefined).prompt(main, 2);
  for (const tool of ["Read", "Edit", "Bash", "Read"]) w.call(main, 2, tool, undefined);
  w.end(main, 2, undefined);
  return withSpend ? w.records : w.records.map(({ spend: _spend, ...r }) => r);
}

/** (c) Long: 70 decisions over two tasks, with refusals scattered, a token budget far above the spend (named, not drawn). */
export function longSession(): LogRecord[] {
  const main: ScopeSpec = {
    scope: "self",
    gatedBy: SKILL,
    maxSteps: 60,
    floor: -0.5,
    budgets: { tokenBudget: 20_000_000, costBudgetUsd: 1.5 },
  };
  const w = new SessionWriter("5c5c5c5c-long-4000-9000-000000000070");
  const actions: Action[] = ["retrieve", "verify", "tool_call", "retrieve", "verify"];
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const [task, count] of [
    [1, 44],
    [2, 24],
  ] as const) {
    w.prompt(main, task);
    for (let i = 0; i < count; i += 1) {
      const action = actions[i % actions.length]!;
      const gain = Math.round((0.35 + next() * 0.55) * 100) / 100;
      const cost = Math.round((0.05 + (i / count) * 0.5) * 100) / 100;
      const unc = Math.round(next() * 0.6 * 100) / 100;
      const red = i % 9 === 8 ? 0.6 : 0;
      const r = report(action, gain, cost, unc, red, `step ${i + 1} of task ${task}: ${action}`);
      const refused = i % 13 === 6 ? "not_argmax" : i % 17 === 11 ? "exact_repeat" : r.utility < -0.5 ? "below_floor" : undefined;
      w.call(main, task, action === "verify" ? "Bash" : action === "tool_call" ? "Edit" : "Read", r, refused ? { refused } : {});
    }
    w.end(main, task, report("respond", 0.8, 0.3, 0.1, 0, `task ${task} done`));
  }
  return w.records;
}
