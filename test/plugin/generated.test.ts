/**
 * hooks.json and plugin.json's settings are generated (`npm run build`,
 * scripts/generate.ts) from the registries in src/: a hand edit of either
 * file fails here, with the fix.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, HOOK_EVENTS } from "../../src/hooks/events.js";
import { renderHooksJson } from "../../src/hooks/hooks-json.js";
import { withGeneratedSettings } from "../../src/optin/manifest.js";
import { PLUGIN_ROOT } from "../support/paths.js";

const FIX = "generated from src/: change the registry, then run npm run build";
const read = (...path: string[]) => JSON.parse(readFileSync(join(PLUGIN_ROOT, ...path), "utf8"));

describe("the generated plugin files", () => {
  it("hooks.json is what src/hooks/events.ts renders", () => {
    expect(read("hooks", "hooks.json"), FIX).toEqual(renderHooksJson());
  });

  it("plugin.json's userConfig and the server's env are what src/optin/options.ts renders", () => {
    const manifest = read(".claude-plugin", "plugin.json");
    expect(manifest, FIX).toEqual(withGeneratedSettings(manifest));
  });

  it("a hand edit is caught: an option's bound, a hook's timeout", () => {
    const manifest = read(".claude-plugin", "plugin.json");
    manifest.userConfig.token_budget.min = 2;
    expect(manifest).not.toEqual(withGeneratedSettings(manifest));
    const hooks = read("hooks", "hooks.json");
    hooks.hooks.PreToolUse[0].hooks[0].timeout = 60;
    expect(hooks).not.toEqual(renderHooksJson());
  });

  it("each command hook says why it is not served", () => {
    for (const event of HOOK_EVENT_NAMES) {
      const wiring = HOOK_EVENTS[event].wiring;
      if (wiring.runs === "command") expect(wiring.why.length, event).toBeGreaterThan(40);
    }
  });
});
