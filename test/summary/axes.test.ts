// The report's axes fit what they show: U padded around the data and the floor, never past [−2.3, 1];
// one tick per position while they fit, thinned to round numbers past that, never repeated.
import { describe, expect, it } from "vitest";
import { amountAxis, niceStep, positionTicks, uAxis } from "../../src/summary/axes.js";

const ascendingOnce = (ticks: number[]) => ticks.every((t, i) => i === 0 || t > ticks[i - 1]!);

describe("uAxis", () => {
  it("fits the data and the floor with some room, not U's whole range (issue 20: points in the top tenth)", () => {
    const axis = uAxis([0.3, 0.2, 0.21, 0.38, -0.16, -0.62, 0.4], [-0.5]);
    expect(axis.min).toBeLessThan(-0.62);
    expect(axis.max).toBeGreaterThan(0.4);
    // The data spans 1.02 of the axis; at least two thirds of the axis is data.
    expect(1.02 / (axis.max - axis.min)).toBeGreaterThan(2 / 3);
    expect(axis).toMatchObject({ min: -0.8, max: 0.6, step: 0.2 });
  });

  it("keeps the floor in view when the data sits far above it", () => {
    const axis = uAxis([0.5, 0.6, 0.7], [-0.5]);
    expect(axis.min).toBeLessThan(-0.5);
    expect(axis.max).toBeGreaterThan(0.7);
  });

  it("pads a single value, and never leaves U's range [−2.3, 1]", () => {
    const one = uAxis([0.3]);
    expect(one.min).toBeLessThan(0.3);
    expect(one.max).toBeGreaterThan(0.3);
    const edges = uAxis([1, -2.3]);
    expect(edges.min).toBe(-2.3);
    expect(edges.max).toBe(1);
    expect(uAxis([5, -9]).min).toBe(-2.3);
  });

  it("puts each tick once, ascending, on whole multiples of its step, inside the range", () => {
    for (const [values, keep] of [
      [[0.3, 0.2], [-0.5]],
      [[-2.2, 0.9], []],
      [[0.12, 0.13], [0.1]],
      [[-1.7, -1.2], [-0.5]],
    ] as const) {
      const axis = uAxis(values, keep);
      expect(ascendingOnce(axis.ticks)).toBe(true);
      expect(axis.ticks.length).toBeGreaterThanOrEqual(3);
      for (const t of axis.ticks) {
        expect(t).toBeGreaterThanOrEqual(axis.min - 1e-9);
        expect(t).toBeLessThanOrEqual(axis.max + 1e-9);
        expect(Math.abs(t / axis.step - Math.round(t / axis.step))).toBeLessThan(1e-6);
      }
    }
  });
});

describe("positionTicks", () => {
  it("labels every position while they fit", () => {
    expect(positionTicks(6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(positionTicks(1)).toEqual([1]);
    expect(positionTicks(0)).toEqual([]);
  });

  it("thins to 2, 5, 10, 20… when there are many, integers each once (issue 20: '0 1 1 1 2 3')", () => {
    expect(positionTicks(70, 40)).toEqual(Array.from({ length: 35 }, (_, i) => 2 * (i + 1)));
    expect(positionTicks(70, 20)).toEqual([1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70]);
    const many = positionTicks(1234, 25);
    expect(many[0]).toBe(1);
    expect(many.slice(1, 3)).toEqual([50, 100]);
    for (const n of [7, 26, 61, 99, 250, 1000]) {
      const ticks = positionTicks(n, 25);
      expect(ticks.length).toBeLessThanOrEqual(26);
      expect(ascendingOnce(ticks)).toBe(true);
      expect(ticks.every((t) => Number.isInteger(t) && t >= 1 && t <= n)).toBe(true);
    }
  });
});

describe("amountAxis and niceStep", () => {
  it("counts from 0 past the largest value in round steps", () => {
    expect(amountAxis(12, 5, true)).toMatchObject({ min: 0, max: 12, step: 2 });
    expect(amountAxis(13.2, 5, true)).toMatchObject({ min: 0, max: 15, step: 5 });
    expect(amountAxis(11, 6, true)).toMatchObject({ max: 12, step: 2 });
    expect(amountAxis(0.27, 4)).toMatchObject({ max: 0.3, step: 0.1 });
    expect(amountAxis(0)).toMatchObject({ min: 0, max: 1 });
    expect(niceStep(3.3, 7)).toBe(0.5);
    expect(niceStep(1.4, 7)).toBe(0.2);
  });
});
