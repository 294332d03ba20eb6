/**
 * SPEC §12 "beyond one task" in the real client: a rolling window budget set
 * in the user's settings (`window_cost_budget_usd`) counts the spend of every
 * session of the user, read from the plugin's spend ledger. A second session
 * is refused once the first has spent it; two sessions that run at once both
 * count, and neither is counted twice.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICES, estimateCostUsd } from "../../../src/engine/prices.js";
import { windowSpend } from "../../../src/state/ledger.js";
import { makeScratchHome, type RunClaudeResult } from "../support/claude.js";
import { text, toolUse } from "../support/scripted-model.js";
import { dataDirOf, expectPassed, gateRun, id, logOf, markerDir, ran, stateOf, touch } from "./support.js";

/** What every reply reports: 200,000 input tokens and the scripted model's 5 output tokens. */
const INPUT = 200_000;
const usage = () => ({ input_tokens: INPUT, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
/** The estimated cost of one reply, as the plugin prices it (the client's default model is an opus). */
const reply = (model: string) => estimateCostUsd({ [model]: { input: INPUT, output: 5, cacheCreation: 0, cacheRead: 0 } }, DEFAULT_PRICES);
const MODEL = "claude-opus-5-5";

/** A scratch HOME whose settings set the plugin's options, as a user does (`utility@inline` under --plugin-dir). */
function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

/** A session of one Bash call and a final answer, in the shared HOME. */
function session(home: string, call: string, marker: string): Promise<RunClaudeResult> {
  return gateRun({ prompt: "do one thing", home, usage, script: [[touch(marker, call)], [text("Done.")]] });
}

/**
 * A session whose one Bash call marks itself and then waits (up to 60 s) for
 * the other session's mark: both calls run at the same time, so the two
 * sessions certainly overlap, whatever the machine's speed.
 */
function meeting(home: string, call: string, mine: string, theirs: string): Promise<RunClaudeResult> {
  const command = `touch ${mine}; for i in $(seq 600); do [ -e ${theirs} ] && break; sleep 0.1; done; [ -e ${theirs} ]`;
  return gateRun({
    prompt: "do one thing",
    home,
    usage,
    script: [[toolUse("Bash", { command, description: "meet" }, call)], [text("Done.")]],
  });
}

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe("a window budget, one session after another", () => {
  const marks = markerDir();
  const calls = { a1: id("wa1"), a2: id("wa2"), b1: id("wb1") };
  const c = reply(MODEL);
  let first: RunClaudeResult;
  let second: RunClaudeResult;

  beforeAll(async () => {
    // Two and a half replies: the first session's two calls fit, and the second session's own reply alone would too.
    const home = homeWithOptions({ window_cost_budget_usd: Number((2.5 * c).toFixed(4)) });
    homes.push(home);
    first = await gateRun({
      prompt: "spend",
      home,
      usage,
      script: [[touch(join(marks, "a1"), calls.a1)], [touch(join(marks, "a2"), calls.a2)], [text("Done.")]],
    });
    second = await session(home, calls.b1, join(marks, "b1"));
  }, 180_000);
  afterAll(() => {
    first?.cleanup();
    second?.cleanup();
  });

  it("the first session runs while its own spend is under the window's budget", () => {
    expectPassed(first, calls.a1, "observed");
    expectPassed(first, calls.a2, "observed");
    expect(ran(join(marks, "a1")) && ran(join(marks, "a2"))).toBe(true);
  });

  it("the second session's first call is refused: the window holds the first session's spend, named as the window's budget", () => {
    const said = expectRefusedUngated(second, calls.b1);
    expect(said).toMatch(
      /^Your cost budget for the last 5 hours, across all your sessions, is spent: an estimated \$[0-9.]+ of \$[0-9.]+ \(window_cost_budget_usd, window_hours 5;/,
    );
    expect(ran(join(marks, "b1"))).toBe(false);
    expect(JSON.stringify(second.model.mainRequests().at(-1))).toContain("across all your sessions, is spent");
    // Its own session spent one reply: less than the budget. The rest was the first session's.
    expect(estimateCostUsd(stateOf(second).spend.byModel, DEFAULT_PRICES)).toBeLessThan(2.5 * c);
  });
});

describe("two sessions at once, then a third", () => {
  const marks = markerDir();
  const calls = { a: id("wpa"), b: id("wpb"), c: id("wpc") };
  const c = reply(MODEL);
  let a: RunClaudeResult;
  let b: RunClaudeResult;
  let third: RunClaudeResult;
  let home: string;

  beforeAll(async () => {
    // Each of the two spends two replies (its call's and its final answer). Their calls wait for each other, so at
    // its call a session sees at most its own reply and the other's call reply: 2 replies, under 3.5. The third sees
    // both (4) and its own: refused. Had either not counted, it would see 2 + 1 = 3 and run.
    home = homeWithOptions({ window_cost_budget_usd: Number((3.5 * c).toFixed(4)) });
    homes.push(home);
    const [ma, mb] = [join(marks, "a"), join(marks, "b")];
    [a, b] = await Promise.all([meeting(home, calls.a, ma, mb), meeting(home, calls.b, mb, ma)]);
    third = await session(home, calls.c, join(marks, "c"));
  }, 240_000);
  afterAll(() => {
    for (const r of [a, b, third]) r?.cleanup();
  });

  it("both run, at the same time: each call saw the other's mark", () => {
    expectPassed(a, calls.a, "observed");
    expectPassed(b, calls.b, "observed");
    for (const [run, call] of [
      [a, calls.a],
      [b, calls.b],
    ] as const)
      expect(logOf(run).find((r) => r.event === "Outcome" && r.toolUseId === call)?.outcome).toMatchObject({ result: "ran" });
  });

  it("the ledger holds both sessions' whole spend, each once, equal to what each session's state counted", () => {
    const dir = dataDirOf(a);
    const window = windowSpend(dir, Date.now(), 5);
    const states = [stateOf(a), stateOf(b), stateOf(third)].map((s) => s.spend.tokens);
    const sum = states.reduce((acc, t) => acc + t.input + t.output + t.cacheCreation + t.cacheRead, 0);
    expect(window.tokens.input + window.tokens.output + window.tokens.cacheCreation + window.tokens.cacheRead).toBe(sum);
    // Each of the two counted its call's reply and its final answer.
    expect(states[0]).toMatchObject({ input: 2 * INPUT, output: 10 });
    expect(states[1]).toMatchObject({ input: 2 * INPUT, output: 10 });
  });

  it("the third session is refused: the window holds both", () => {
    const said = expectRefusedUngated(third, calls.c);
    expect(said).toContain("window_cost_budget_usd");
    expect(ran(join(marks, "c"))).toBe(false);
  });
});

/** The call was refused in an ungated scope: in permission_denials, and the model was told why. */
function expectRefusedUngated(run: RunClaudeResult, call: string): string {
  expect(run.result!.permission_denials.map((d) => d.tool_use_id)).toContain(call);
  const record = JSON.parse(
    readFileSync(join(dataDirOf(run), "sessions", `${run.sessionId}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .find((line) => line.includes(call) && line.includes('"PreToolUse"'))!,
  );
  expect(record).toMatchObject({ decision: "refused", rule: "budget_spent", gated: false });
  return record.reason as string;
}
