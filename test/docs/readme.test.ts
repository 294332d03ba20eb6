// The README is for users first (SPEC §9): short, install near the top, the
// two set-up commands kept, every setting it lists one src/optin/options.ts declares,
// and every file it links to present.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { USER_OPTIONS } from "../../src/optin/options.js";
import { ROOT } from "../support/paths.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const lines = readme.split("\n");

const lineOf = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l)) + 1;

describe("the README", () => {
  it("is at most 300 lines and says how to install within its first 80", () => {
    expect(lines.length).toBeLessThanOrEqual(300);
    const install = lineOf(/^## Install/);
    expect(install).toBeGreaterThan(0);
    expect(lineOf(/^claude plugin install utility@utility-marketplace/)).toBeLessThanOrEqual(80);
  });

  it("keeps the two set-up commands near the top", () => {
    expect(lineOf(/^npm run demo$/)).toBeGreaterThan(0);
    expect(lineOf(/^npm run demo$/)).toBeLessThanOrEqual(45);
    expect(lineOf(/^npm test$/)).toBeLessThanOrEqual(45);
  });

  it("lists every user setting (src/optin/options.ts, which generates the manifest's), and no other", () => {
    const table = readme.slice(readme.indexOf("## Budgets and runaway insurance"), readme.indexOf("## Settings"));
    const named = new Set(
      table
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .flatMap((l) => [...l.split("|")[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)),
    );
    expect([...named].sort()).toEqual(USER_OPTIONS.map((o) => o.option).sort());
  });

  it("links only to files that exist", () => {
    const targets = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!).filter((t) => !/^https?:/.test(t));
    expect(targets.length).toBeGreaterThan(3);
    for (const target of targets) expect(existsSync(join(ROOT, target)), target).toBe(true);
  });
});
