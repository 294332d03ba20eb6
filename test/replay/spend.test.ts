// Replay's spend per scope (SPEC §12): each assistant message counted once, copies across files once,
// and on the real transcripts equal to an independent sum over their usage fields.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replayFiles } from "../../src/replay/files.js";
import { renderReplayText } from "../../src/replay/render.js";
import { TRANSCRIPTS } from "../support/paths.js";
import { agentProgress, jsonl, tempDir, type TempDir } from "./support.js";

const usage = (input: number, output: number, cacheCreation = 0, cacheRead = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: cacheCreation,
  cache_read_input_tokens: cacheRead,
});

function line(id: string | undefined, u: object, extra: Record<string, unknown> = {}, model = "claude-sonnet-4-5"): string {
  return JSON.stringify({
    type: "assistant",
    isSidechain: false,
    ...extra,
    message: { ...(id ? { id } : {}), role: "assistant", model, content: [{ type: "text", text: "x" }], usage: u },
  });
}

describe("replay's spend per scope is the scope reducer's", () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());
  const spendOf = (lines: string[], name = "s.jsonl") => replayFiles([dir.file(name, jsonl(lines))]).files[0]!.spend;

  it("counts a message spanning several lines once, with its final (largest) counts", () => {
    const [main] = spendOf([
      line("m1", usage(3, 8, 100, 50)),
      line("m1", usage(3, 172, 100, 50)),
      line("m1", usage(3, 172, 100, 50)),
      line("m2", usage(1, 1)),
    ]);
    expect(main).toMatchObject({ scope: "main", messages: 2, tokens: { input: 4, output: 173, cacheCreation: 100, cacheRead: 50 } });
  });

  it("puts subagent lines in their scope: agent id, agent_progress copies, 1.0 sidechains", () => {
    const sub = line("s1", usage(10, 10), { isSidechain: true, agentId: "a1" }, "claude-haiku-4-5");
    const spend = spendOf([
      line("m1", usage(1, 1)),
      agentProgress("a2", line("s2", usage(5, 5))),
      line("s3", usage(2, 2), { isSidechain: true }),
      sub,
    ]);
    expect(spend.map((s) => s.scope).sort()).toEqual(["agent:a1", "agent:a2", "main", "sidechain"]);
    expect(spend.find((s) => s.scope === "agent:a1")?.byModel).toEqual({
      "claude-haiku-4-5": { input: 10, output: 10, cacheCreation: 0, cacheRead: 0 },
    });
    expect(spend.find((s) => s.scope === "agent:a2")?.tokens.input).toBe(5);
  });

  it("a subagent's own file is that agent's scope; lines without usage, without an id, or not JSON", () => {
    mkdirSync(join(dir.path, "sess", "subagents"), { recursive: true });
    const spend = spendOf(
      [
        line("s1", usage(1, 1)),
        line(undefined, usage(2, 0), { uuid: "u1" }),
        line(undefined, usage(2, 0), { uuid: "u2" }),
        '{"type":"assistant","usage":',
        JSON.stringify({ type: "user", message: { usage: usage(9, 9) } }),
      ],
      "sess/subagents/agent-zz.jsonl",
    );
    expect(spend.map((s) => [s.scope, s.tokens])).toEqual([["agent:zz", { input: 5, output: 1, cacheCreation: 0, cacheRead: 0 }]]);
  });

  it("ignores counts that are not non-negative numbers", () => {
    const [main] = spendOf([line("m", { input_tokens: 1.5, output_tokens: -3, cache_read_input_tokens: 4 })]);
    expect(main!.tokens).toEqual({ input: 0, output: 0, cacheCreation: 0, cacheRead: 4 });
  });
});

describe("utility replay reports spend per scope", () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("a subagent copied into the session file (agent_progress) and in its own file counts once in the totals", () => {
    const subLines = [line("s1", usage(100, 10), { isSidechain: true, agentId: "a1b2" }, "claude-haiku-4-5")];
    mkdirSync(join(dir.path, "sess", "subagents"), { recursive: true });
    const main = dir.file("sess.jsonl", jsonl([line("m1", usage(1000, 50, 200, 300)), ...subLines.map((l) => agentProgress("a1b2", l))]));
    dir.file("sess/subagents/agent-a1b2.jsonl", jsonl(subLines));
    const report = replayFiles([main]);
    expect(report.files[0]!.spend.map((s) => [s.scope, s.total])).toEqual([["main", 1550]]);
    expect(report.files[1]!.spend.map((s) => [s.scope, s.total])).toEqual([["agent:a1b2", 110]]);
    expect(report.totals.spend.total).toBe(1660);
    expect(report.totals.spend.messages).toBe(2);
    // sonnet 1000·3 + 50·15 + 200·6 + 300·0.3, haiku 100·1 + 10·5, per million
    expect(report.totals.spend.costUsd).toBeCloseTo((3000 + 750 + 1200 + 90 + 100 + 50) / 1e6, 12);
    const text = renderReplayText(report);
    expect(text).toContain("  spend main: 1,550 tokens in 1 message (input 1,000, output 50, cache writes 200, cache reads 300)");
    expect(text).toContain("  spend agent a1b2: 110 tokens");
    expect(text).toMatch(/^spend: 1,660 tokens in 2 messages .* at the prices of \d{4}-\d{2}-\d{2}; each message counted once$/m);
  });
});

/** Independent of src: every object anywhere in a line that has an `id` and a `usage`, grouped by id, each count's largest value. */
function independentUsageSum(file: string): { input: number; output: number; cacheCreation: number; cacheRead: number } {
  const byId = new Map<string, Record<string, number>>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (typeof o.id === "string" && typeof o.usage === "object" && o.usage !== null && o.role === "assistant") {
      const u = o.usage as Record<string, number>;
      const prev = byId.get(o.id) ?? {};
      const fields = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];
      byId.set(o.id, Object.fromEntries(fields.map((f) => [f, Math.max(prev[f] ?? 0, u[f] ?? 0)])));
    }
    Object.values(o).forEach(visit);
  };
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    try {
      visit(JSON.parse(text));
    } catch {
      // a torn line is skipped by both sides
    }
  }
  const sum = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
  for (const u of byId.values()) {
    sum.input += u.input_tokens!;
    sum.output += u.output_tokens!;
    sum.cacheCreation += u.cache_creation_input_tokens!;
    sum.cacheRead += u.cache_read_input_tokens!;
  }
  return sum;
}

describe("replay's token totals on the real transcripts", () => {
  const files = readdirSync(TRANSCRIPTS).filter((f) => f.endsWith(".jsonl"));

  it("there are real transcripts to check", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)("%s: equal an independent sum over their usage fields", (name) => {
    const file = join(TRANSCRIPTS, name);
    const expected = independentUsageSum(file);
    expect(expected.input + expected.output + expected.cacheRead).toBeGreaterThan(0);
    expect(replayFiles([file]).totals.spend.tokens).toEqual(expected);
  });
});
