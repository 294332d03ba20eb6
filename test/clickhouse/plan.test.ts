import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { errorText, lineChunks, retryDelay, stepRowsAfter, tasksBehind } from "../../src/clickhouse/plan.js";
import { stepRows, taskRows } from "../../src/export/rows.js";
import { readSessionLog } from "../../src/export/sources.js";
import { parseLogLines } from "../../src/summary/load.js";
import { nodeSha256Hex } from "../../src/hash/node-sha256.js";
import { DEFAULT_PRICES } from "../../src/engine/prices.js";
import { sessionLog } from "../export/support/team-logs.js";

const SESSION = "c1c1c1c1-0000-4000-8000-000000000001";
const dir = mkdtempSync(join(tmpdir(), "utility-ch-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { developer: "dev", project: "shop", promptIds: new Map<string, string>() };

describe("the live ClickHouse export's plan", () => {
  it("cuts whole lines into chunks of at most so many lines, their bytes adding up to the text's", () => {
    const text = "a\nbé\nc\nd\ne\n";
    const chunks = lineChunks(text, 2);
    expect(chunks.map((c) => c.text)).toEqual(["a\nbé\n", "c\nd\n", "e\n"]);
    expect(chunks.map((c) => c.lines)).toEqual([2, 2, 1]);
    expect(chunks.reduce((n, c) => n + c.bytes, 0)).toBe(Buffer.byteLength(text));
    expect(lineChunks("", 2)).toEqual([]);
  });

  it("chunk by chunk, makes the very rows utility export makes of the whole log: same ids, same prompt keys", () => {
    const file = join(dir, "log.jsonl");
    writeFileSync(file, sessionLog({ session: SESSION, day: "2026-12-01", tokensPerStep: 1000 }));
    const whole = stepRows(readSessionLog(file).lines, ctx, nodeSha256Hex);
    let key = "";
    const live = [];
    for (const chunk of lineChunks(
      readSessionLog(file)
        .lines.map((l) => `${l.line}\n`)
        .join(""),
      4,
    )) {
      const made = stepRowsAfter(parseLogLines(chunk.text).lines, ctx, key, nodeSha256Hex);
      key = made.promptKey;
      live.push(...made.rows);
    }
    expect(live).toEqual(whole);
    expect(new Set(live.map((r) => r.prompt_key)).size).toBeGreaterThan(1);
  });

  it("sends a task again only when it has more records than the version stored", () => {
    const file = join(dir, "log.jsonl");
    writeFileSync(file, sessionLog({ session: SESSION, day: "2026-12-01", tokensPerStep: 1000 }));
    const rows = taskRows(
      readSessionLog(file).lines.map((l) => l.record),
      ctx,
      DEFAULT_PRICES,
    );
    expect(tasksBehind(rows, {})).toEqual(rows);
    const stored = Object.fromEntries(rows.map((r) => [r.id, r.version]));
    expect(tasksBehind(rows, stored)).toEqual([]);
    stored[rows[0]!.id] = rows[0]!.version - 1;
    expect(tasksBehind(rows, stored)).toEqual([rows[0]]);
  });

  it("waits longer after each failed send, at most 30 s; says an error in one short line", () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 1500))).toEqual([1500, 3000, 6000, 12000]);
    expect(retryDelay(20, 1500)).toBe(30_000);
    expect(errorText(new Error("ClickHouse answered 500: Code: 60\nmore"))).toBe("ClickHouse answered 500: Code: 60");
    expect(errorText("x".repeat(400))).toHaveLength(300);
  });
});
