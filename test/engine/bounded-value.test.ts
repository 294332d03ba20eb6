/**
 * Bounds on the YAML the plugin reads (src/engine/bounded-value.ts; issue 31,
 * hole 10): an aliased value is shared, not copied, so whatever walks it must
 * stop at a bound. Counted, not timed: a value built of proxies counts every
 * item read, and the count stays near the bound while the value, expanded,
 * holds 9^20 items.
 */
import { describe, expect, it } from "vitest";
import {
  blockTooLong,
  boundedJson,
  isYamlBoundsError,
  MAX_EXPANDED_SIZE,
  MAX_FRONTMATTER_CHARS,
  passesBound,
  tooLarge,
  YamlBoundsError,
} from "../../src/engine/bounded-value.js";

/** A list of 9 copies of the same list, `levels` deep, whose item reads are counted. */
function countedBomb(levels: number): { value: unknown[]; reads: () => number } {
  let reads = 0;
  const counted = (items: unknown[]) =>
    new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  let value = counted(Array(9).fill("lol"));
  for (let i = 0; i < levels; i++) value = counted(Array(9).fill(value));
  return { value, reads: () => reads };
}

describe("passesBound: the walk that measures a value with its aliases expanded", () => {
  it("stops at the bound: an alias bomb of 9^20 items is read about MAX_EXPANDED_SIZE times", () => {
    const bomb = countedBomb(20);
    expect(passesBound({ utility_floor: bomb.value })).toEqual(["utility_floor"]);
    // each "lol" counts 4 (one value, three characters)
    expect(bomb.reads()).toBeGreaterThan(MAX_EXPANDED_SIZE / 8);
    expect(bomb.reads()).toBeLessThan(MAX_EXPANDED_SIZE + 1_000);
  });

  it("counts one per value plus each text's length", () => {
    expect(passesBound({ a: "x".repeat(99) }, 101)).toBeUndefined();
    expect(passesBound({ a: "x".repeat(100) }, 101)).toEqual(["a"]);
    expect(passesBound([1, 2, 3], 4)).toBeUndefined();
    expect(passesBound([1, 2, 3, 4], 4)).toEqual([]);
  });

  it("blames the keys the plugin reads first, two keys deep", () => {
    const shared = Array(1000).fill("abcdefghij");
    const value = { a4: shared, b: { c: { d: shared } }, metadata: { utility_floor: shared } };
    expect(passesBound(value, 5_000)).toEqual(["metadata", "utility_floor"]);
    expect(passesBound({ a4: shared, b: { c: { d: shared } } }, 5_000)).toEqual(["a4"]);
    expect(passesBound({ b: { c: { d: shared } } }, 5_000)).toEqual(["b", "c"]);
  });

  it("ends on a cycle", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(passesBound(cycle, 1_000)).toEqual(["self", "self"]);
  });
});

describe("tooLarge and blockTooLong: the problems, with the key, what was found and what is expected", () => {
  it("a value within the bound is no problem; one past it names the key", () => {
    expect(tooLarge({ utility_floor: 0.5, name: "x" })).toBeUndefined();
    const bomb = countedBomb(12);
    expect(tooLarge({ name: "x", utility_floor: bomb.value })).toEqual({
      key: "utility_floor",
      found: "YAML whose aliases expand past 262,144 values and characters",
      expected: "at most 262,144 values and characters once aliases are expanded (a plain value, not an alias bomb)",
    });
    expect(tooLarge(bomb.value)!.key).toBe("frontmatter");
  });

  it("a block longer than MAX_FRONTMATTER_CHARS", () => {
    expect(blockTooLong("x".repeat(MAX_FRONTMATTER_CHARS))).toBeUndefined();
    expect(blockTooLong("x".repeat(MAX_FRONTMATTER_CHARS + 1))).toEqual({
      key: "frontmatter",
      found: "a block of 65,537 characters",
      expected: "at most 65,536 characters of YAML between the --- lines",
    });
  });

  it("the error is recognised by name, as it crosses bundles", () => {
    const error = new YamlBoundsError({ key: "k", found: "f", expected: "e" });
    expect(isYamlBoundsError(error)).toBe(true);
    expect(error.message).toBe("k is f; expected e");
    const foreign = Object.assign(new Error("x"), { name: "YamlBoundsError", bounds: { key: "k" } });
    expect(isYamlBoundsError(foreign)).toBe(true);
    expect(isYamlBoundsError(new Error("YamlBoundsError"))).toBe(false);
  });
});

describe("boundedJson: JSON.stringify's text, no more of the value than it writes", () => {
  it("writes what JSON.stringify writes for ordinary values", () => {
    const values: unknown[] = [
      [1, 0.5, 'a"b', true, null],
      { a: [1, { b: "c" }], skip: undefined, f: () => 1 },
      [undefined, NaN, Infinity, new Date(0)],
      "text",
      -3,
      { d: new Date(86_400_000) },
    ];
    for (const value of values) expect(boundedJson(value, 1_000)).toBe(JSON.stringify(value));
  });

  it("stops after max + 1 characters, on a bomb and a cycle alike", () => {
    const bomb = countedBomb(30);
    const shown = boundedJson(bomb.value, 60);
    expect(shown).toHaveLength(61);
    expect(bomb.reads()).toBeLessThan(100);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(boundedJson(cycle, 60)).toHaveLength(61);
    expect(boundedJson("x".repeat(1_000_000), 60)).toBe(`"${"x".repeat(60)}`);
  });
});
