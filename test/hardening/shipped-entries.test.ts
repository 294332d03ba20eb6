// The hardening suite drives every hook the plugin ships, the way Claude Code
// runs it: its ENTRIES are the events plugin/hooks/hooks.json registers (each
// served one through the hook server, the command ones through their entry in
// plugin/dist/hooks), and only the command events have an entry. SessionStart's
// check that the server runs (src/hooks/server-check.ts) is tested on its own, in
// test/hooks/server-check.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENT_NAMES, servedWiring } from "../../src/hooks/events.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { ENTRIES as HARDENED } from "./support.js";

const ENTRIES = [...HARDENED, { file: "session-start", event: "SessionStart" }] as const;

type Hook = { type: string; args?: string[]; tool?: string; server?: string };

describe("the hardening suite's entries", () => {
  it("are every event the plugin answers; only the command ones have an entry bundle in plugin/dist/hooks", () => {
    expect(ENTRIES.map((e) => e.event).sort()).toEqual([...HOOK_EVENT_NAMES].sort());
    const bundles = readdirSync(join(PLUGIN_ROOT, "dist", "hooks")).filter((f) => f.endsWith(".js") && f !== "runtime.js");
    const commands = ENTRIES.filter((e) => !servedWiring(e.event));
    expect(commands.map((e) => `${e.file}.js`).sort()).toEqual(bundles.sort());
    expect(commands.map((e) => e.event).sort()).toEqual(["SessionEnd", "SessionStart"]);
    for (const e of commands) expect(readFileSync(join(PLUGIN_ROOT, "dist", "hooks", `${e.file}.js`), "utf8")).toContain(`"${e.event}"`);
  });

  it("are the events hooks.json registers; each served one goes to the server's tool, the others to their bundle", () => {
    const hooks = JSON.parse(readFileSync(join(PLUGIN_ROOT, "hooks", "hooks.json"), "utf8")).hooks as Record<
      string,
      Array<{ hooks: Hook[] }>
    >;
    expect(Object.keys(hooks).sort()).toEqual(ENTRIES.map((e) => e.event).sort());
    for (const e of ENTRIES) {
      const hook = hooks[e.event]![0]!.hooks[0]!;
      const served = servedWiring(e.event);
      if (served) expect(hook).toMatchObject({ type: "mcp_tool", server: "plugin:utility:hooks", tool: served.tool });
      else expect(hook).toMatchObject({ type: "command", args: [`\${CLAUDE_PLUGIN_ROOT}/dist/hooks/${e.file}.js`] });
    }
  });
});
