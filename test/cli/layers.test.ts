// Layers run one way (docs/development.md, "How it is built"): the CLI reads state and
// logs through src/state, src/summary and the engine, never through the hooks.
import { describe, expect, it } from "vitest";
import { importsUnder } from "../support/imports.js";

describe("src/cli", () => {
  it("has imports to check", () => {
    expect(importsUnder("src/cli").some((i) => i.target.startsWith("src/engine/"))).toBe(true);
  });

  it("imports nothing from src/hooks", () => {
    expect(importsUnder("src/cli").filter((i) => i.target.startsWith("src/hooks/"))).toEqual([]);
  });
});
