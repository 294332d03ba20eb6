// The price table in docs/prices.md states the module's figures and date: they must not drift apart.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DEFAULT_PRICES, priceOf } from "../../src/engine/prices.js";
import { ROOT } from "../support/paths.js";

const section = readFileSync(join(ROOT, "docs", "prices.md"), "utf8");

/** A model id for each row, priced by the module. */
const ROWS: Record<string, string> = {
  "Opus 4.5 and later (`opus`)": "claude-opus-4-5-20251101",
  "Opus 3, 4, 4.1": "claude-opus-4-1-20250805",
  "Sonnet 3.7 to 4.6 (`sonnet`)": "claude-sonnet-4-5",
  "Sonnet 5": "claude-sonnet-5",
  "Haiku 4.5 (`haiku`)": "claude-haiku-4-5",
  "Haiku 3.5": "claude-3-5-haiku-20241022",
  "Haiku 3": "claude-3-haiku-20240307",
  "any other model (Fable, Mythos, an unknown id)": "claude-fable-5",
};

it("docs/prices.md gives the table's date and every row's figures", () => {
  expect(section).toContain(`read on\n${DEFAULT_PRICES.date}`);
  const rows = section.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| model") && !l.startsWith("|---"));
  expect(rows.map((r) => r.split("|")[1]!.trim()).sort()).toEqual(Object.keys(ROWS).sort());
  for (const row of rows) {
    const [name, ...cells] = row
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const p = priceOf(ROWS[name!]!, DEFAULT_PRICES).price;
    expect(cells.map(Number), name).toEqual([p.input, p.output, p.cacheCreation, p.cacheRead]);
  }
});
