// What a hook loads at start-up decides its cost (SPEC §11). Each command hook
// entry in dist/hooks (the events src/hooks/events.ts declares `command`) is
// one line that runs its event from one runtime bundle
// (dist/hooks/runtime.js, which the warm server runs too); that bundle stays a
// single CommonJS file with nothing heavy on its static path: the frontmatter
// reader (gray-matter, js-yaml) only through a dynamic import, no
// node:crypto, no classic zod.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, HOOK_EVENTS } from "../../src/hooks/events.js";
import { PLUGIN_ROOT } from "../support/paths.js";

const HOOKS = join(PLUGIN_ROOT, "dist", "hooks");
const entries = HOOK_EVENT_NAMES.flatMap((event) => {
  const wiring = HOOK_EVENTS[event].wiring;
  return wiring.runs === "command" ? [`${wiring.entry}.js`] : [];
});

describe("dist/hooks", () => {
  it("holds one entry per command hook, the runtime bundle, the lazily imported reader, and nothing else", () => {
    expect(JSON.parse(readFileSync(join(HOOKS, "package.json"), "utf8"))).toEqual({ type: "commonjs" });
    expect(readdirSync(HOOKS).sort()).toEqual([...entries, "optin-read.br", "optin-read.mjs", "package.json", "runtime.js"].sort());
  });

  it.each(entries)("%s is one line running its event from the runtime bundle", (entry) => {
    const code = readFileSync(join(HOOKS, entry), "utf8").trim();
    expect(code.split("\n")).toHaveLength(1);
    expect([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(["./runtime.js"]);
    expect(code).toMatch(/runEntry\)?\("[A-Za-z]+"\)/);
  });

  it("the warm server runs the same bundle", () => {
    const server = readFileSync(join(PLUGIN_ROOT, "dist", "server.js"), "utf8");
    expect([...server.matchAll(/(?:require\(|from)"([^"]+)"/g)].map((m) => m[1])).toEqual(["./hooks/runtime.js"]);
  });

  describe("runtime.js", () => {
    const code = readFileSync(join(HOOKS, "runtime.js"), "utf8");
    const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);

    it("requires only Node built-ins, and not node:crypto", () => {
      expect(required.length).toBeGreaterThan(0);
      expect(required.every((r) => r!.startsWith("node:"))).toBe(true);
      expect(required).not.toContain("node:crypto");
      expect(code).not.toMatch(/\bimport\s*[{*\w]/); // no static ES imports: CommonJS
    });

    it("imports the frontmatter reader only on demand", () => {
      expect(code).not.toMatch(/gray-matter|js-yaml|section-matter/i);
      const dynamic = [...code.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1]);
      expect(dynamic.length).toBeGreaterThan(0);
      // The OpenTelemetry and ClickHouse loaders' paths for the sources (src/otlp/load.ts, src/clickhouse/load.ts) are the
      // others: a bundle loads the packed SDK and dist/clickhouse.mjs instead.
      const sources = ["./bundle.js", "./sender.js"];
      expect(dynamic.filter((d) => !sources.includes(d!)).every((d) => d === "./optin-read.mjs")).toBe(true);
      expect(existsSync(join(HOOKS, "optin-read.mjs"))).toBe(true);
    });

    it("carries zod/mini's core only, not classic zod", () => {
      // Classic zod names its classes "ZodString", "ZodError", …; zod/mini's are "ZodMiniString", … (core: "$ZodString").
      expect(code).toMatch(/"ZodMini[A-Z]\w*"/);
      expect(code).not.toMatch(/"Zod(?!Mini)[A-Z]\w*"/);
    });
  });
});
