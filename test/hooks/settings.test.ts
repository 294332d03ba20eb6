/**
 * The user's plugin settings as a hook reads them (src/hooks/settings.ts) and
 * what they become in the gate's decision (decideInSession): budgets that
 * apply to every scope, a price override, and an invalid value, which refuses
 * in a gated scope only (SPEC §10, §12).
 */
import { describe, expect, it } from "vitest";
import { decideInSession } from "../../src/engine/session/decide.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { type SessionDraft } from "../../src/engine/session/state.js";
import { zeroSpend } from "../../src/engine/spend.js";
import { preToolUse } from "../../src/hooks/pre-tool-use.js";
import { userSettings } from "../../src/hooks/settings.js";
import { denyReason, draftSession, fakeContext, GOOD, preInput, report, seedMainGate, source } from "./fake-context.js";

const BASH = { tool: "Bash", input: { command: "true" } };
const MAX_AGENTS_BAD = { CLAUDE_PLUGIN_OPTION_MAX_AGENTS: "x" };

/** A session whose main scope's task spent `n` input tokens on sonnet, gated by `budgets` when given. */
function spent(n: number, gateBudgets?: SessionDraft["main"]["sources"][number]["budgets"]): SessionDraft {
  const session = draftSession();
  session.main.spend = {
    ...zeroSpend(),
    tokens: { input: n, output: 0, cacheCreation: 0, cacheRead: 0 },
    byModel: { "claude-sonnet-4-5": { input: n, output: 0, cacheCreation: 0, cacheRead: 0 } },
  };
  if (gateBudgets) session.main.sources.push({ ...source("s/SKILL.md"), budgets: gateBudgets });
  return session;
}

describe("userSettings", () => {
  it("none set: no budget, no problem, and the gate computes no budget input", () => {
    expect(userSettings({})).toEqual({ budgets: {} });
    expect(decideInSession(draftSession(), "main", BASH, userSettings({})).budget).toBeUndefined();
    // `reported` is the default StepCost mode: it is no budget.
    const reported = userSettings({ CLAUDE_PLUGIN_OPTION_STEP_COST: "reported" });
    expect(decideInSession(spent(0, {}), "main", BASH, reported).budget).toBeUndefined();
  });

  it("carries the user's budgets, the gating file's, the price override; a problem names the option", () => {
    const user = userSettings({ CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "10", CLAUDE_PLUGIN_OPTION_PRICES: '{"sonnet":{"input":100}}' });
    expect(user.problem).toBeUndefined();
    const b = decideInSession(spent(5, { maxAgents: 1 }), "main", { ...BASH, model: "claude-sonnet-4-5" }, user).budget!;
    expect(b.user).toEqual({ tokenBudget: 10 });
    expect(b.gate).toEqual({ maxAgents: 1 });
    expect(b.prices.families.sonnet.input).toBe(100);
    expect(b.prices.families.opus).toEqual(DEFAULT_PRICES.families.opus);
    expect(b.spend.tokens.input).toBe(5);
    expect(b.model).toBe("claude-sonnet-4-5");
    expect(b.userProblem).toBeUndefined();
    const bad = userSettings(MAX_AGENTS_BAD);
    expect(bad.problem).toContain("max_agents");
    expect(decideInSession(draftSession(), "main", BASH, bad).budget?.userProblem).toBe(bad.problem);
  });

  it("the user's token budget refuses in an ungated scope too", () => {
    const d = decideInSession(spent(10), "main", BASH, userSettings({ CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "10" }));
    expect(d.gate).toBeUndefined();
    expect(d.decision.decision === "refused" && d.decision.rule).toBe("budget_spent");
  });
});

describe("an invalid user setting (SPEC §10)", () => {
  it("never refuses in an ungated scope, and the valid budgets are still enforced", async () => {
    const ctx = fakeContext();
    Object.assign(ctx.env, MAX_AGENTS_BAD);
    expect(denyReason(await preToolUse(preInput("Bash"), ctx))).toBeUndefined();
    expect(ctx.records.at(-1)).toMatchObject({ decision: "observed", gated: false });
    const d = decideInSession(spent(10), "main", BASH, userSettings({ ...MAX_AGENTS_BAD, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "10" }));
    expect(d.decision.decision === "refused" && d.decision.rule).toBe("budget_spent");
  });

  it("refuses every checked call in a gated scope, naming the setting", async () => {
    const ctx = fakeContext();
    Object.assign(ctx.env, MAX_AGENTS_BAD);
    seedMainGate(ctx, source("/s/SKILL.md"));
    const input = preInput("Bash");
    ctx.texts.set(input.tool_use_id, report("verify", "0.28", GOOD));
    expect(denyReason(await preToolUse(input, ctx))).toMatch(
      /^utility gate: No budget can be enforced while a setting is invalid: your utility@<marketplace> setting max_agents is the string "x"; expected a whole number of at least 0\. To set it: /,
    );
    expect(ctx.records.at(-1)).toMatchObject({ decision: "refused", rule: "budget_invalid", gated: true });
  });
});
