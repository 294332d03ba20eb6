import { describe, expect, it } from "vitest";
import { DAY_MS, formatBytes, parseDuration, parseSize, planPrune, type StoredItem } from "../../src/engine/retention.js";

const NOW = 1_000 * DAY_MS;
const item = (id: string, daysAgo: number, bytes = 100): StoredItem => ({ id, bytes, lastWrite: NOW - daysAgo * DAY_MS });
const rule = (days: number, bytes: number) => ({ maxAgeMs: days * DAY_MS, maxBytes: bytes });
const ctx = (protect: string[] = [], graceDays = 1) => ({ now: NOW, protect: new Set(protect), graceMs: graceDays * DAY_MS });
const ids = (plan: ReturnType<typeof planPrune>) => plan.remove.map((r) => `${r.id}:${r.why}`);

describe("planPrune", () => {
  it("removes what is older than the age limit, keeps the rest", () => {
    const plan = planPrune([item("new", 2), item("old", 40), item("edge", 30)], rule(30, 1e9), ctx());
    expect(ids(plan)).toEqual(["old:age"]);
    expect(plan.keep.map((i) => i.id)).toEqual(["edge", "new"]);
    expect(plan.keptBytes).toBe(200);
  });

  it("over the size limit, removes the oldest first until what is kept fits", () => {
    const plan = planPrune([item("a", 5, 300), item("b", 4, 300), item("c", 3, 300), item("d", 2, 300)], rule(30, 650), ctx());
    expect(ids(plan)).toEqual(["a:size", "b:size"]);
    expect(plan.keptBytes).toBe(600);
  });

  it("exactly at the size limit keeps everything", () => {
    expect(planPrune([item("a", 5, 300), item("b", 4, 300)], rule(30, 600), ctx()).remove).toEqual([]);
  });

  it("never removes a protected session nor one written within the grace period, by either limit; the others pay for them", () => {
    const items = [item("current", 90, 500), item("fresh", 0.5, 500), item("old", 40, 10), item("mid", 10, 500)];
    const plan = planPrune(items, rule(30, 600), ctx(["current"]));
    expect(ids(plan)).toEqual(["old:age", "mid:size"]);
    // Still over the limit: what is held stays, and says so in keptBytes.
    expect(plan.keptBytes).toBe(1000);
    expect(plan.keep.map((i) => i.id).sort()).toEqual(["current", "fresh"]);
  });

  it("the same age orders by id; the listing order changes nothing", () => {
    const a = [item("z", 9, 100), item("a", 9, 100), item("m", 9, 100)];
    const plan = planPrune(a, rule(30, 150), ctx());
    expect(ids(plan)).toEqual(["a:size", "m:size"]);
    expect(ids(planPrune([...a].reverse(), rule(30, 150), ctx()))).toEqual(ids(plan));
  });

  it("a zero grace protects nothing by age", () => {
    expect(ids(planPrune([item("x", 0.1, 10)], rule(0.05, 1e9), ctx([], 0)))).toEqual(["x:age"]);
    expect(ids(planPrune([item("x", 0.1, 10)], rule(0.05, 1e9), ctx([], 1)))).toEqual([]);
  });
});

describe("limits as people write them", () => {
  it.each([
    ["30d", 30 * DAY_MS],
    ["30", 30 * DAY_MS],
    ["12h", 12 * 3_600_000],
    ["2w", 14 * DAY_MS],
    ["90m", 90 * 60_000],
    ["45s", 45_000],
    [" 1.5D ", 1.5 * DAY_MS],
  ])("duration %j", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "0", "0d", "-1d", "d", "3 days", "1y", "1e3"])("duration %j is refused", (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );

  it.each([
    ["100MB", 100 * 1024 ** 2],
    ["100", 100 * 1024 ** 2],
    ["1.5G", 1.5 * 1024 ** 3],
    ["1gb", 1024 ** 3],
    ["500k", 500 * 1024],
    ["500KB", 500 * 1024],
    ["2048b", 2048],
    ["3m", 3 * 1024 ** 2],
  ])("size %j", (text, bytes) => expect(parseSize(text)).toBe(bytes));

  it.each(["", "0", "0MB", "-5MB", "MB", "10 TB", "1e3"])("size %j is refused", (text) => expect(parseSize(text)).toBeUndefined());

  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KB"],
    [1536, "1.5 KB"],
    [1024 ** 2, "1.0 MB"],
    [5.25 * 1024 ** 2, "5.3 MB"],
    [1024 ** 3, "1.00 GB"],
  ])("%d bytes read %j", (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});
