// The hardening suite runs every hook the plugin ships: its ENTRIES list is
// the bundles in plugin/dist/hooks and the events plugin/hooks/hooks.json
// registers, each entry with the event its bundle serves (HOOK_HANDLERS).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_HANDLERS } from "../../src/hooks/handlers.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { ENTRIES } from "./support.js";

describe("the hardening suite's entries", () => {
  it("are the bundles in plugin/dist/hooks", () => {
    const bundles = readdirSync(join(PLUGIN_ROOT, "dist", "hooks")).filter((f) => f.endsWith(".js"));
    expect(ENTRIES.map((e) => `${e.file}.js`).sort()).toEqual(bundles.sort());
  });

  it("are the events hooks.json registers, each run by its own bundle, and every event a handler answers", () => {
    const hooks = JSON.parse(readFileSync(join(PLUGIN_ROOT, "hooks", "hooks.json"), "utf8")).hooks as Record<
      string,
      Array<{ hooks: Array<{ args: string[] }> }>
    >;
    const registered = Object.entries(hooks).map(([event, groups]) => [event, groups[0]!.hooks[0]!.args[0]!]);
    expect(registered.sort()).toEqual(ENTRIES.map((e) => [e.event, `\${CLAUDE_PLUGIN_ROOT}/dist/hooks/${e.file}.js`]).sort());
    expect(Object.keys(HOOK_HANDLERS).sort()).toEqual(ENTRIES.map((e) => e.event).sort());
  });
});
