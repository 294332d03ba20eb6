// The hardening suite runs every hook the plugin ships: its ENTRIES list is
// the one-line entry bundles in plugin/dist/hooks (each answering its event
// through the runtime bundle), the events plugin/hooks/hooks.json registers
// (an mcp_tool call to the plugin's own server, or a command running that
// entry), and the events the routes table answers. SessionStart's check
// that the server runs (src/server/sentinel.ts) is tested on its own, in
// test/server/sentinel.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_ROUTES } from "../../src/hooks/routes/index.js";
import { SERVED } from "../../src/server/hook-call.js";
import { PLUGIN_ROOT } from "../support/paths.js";
import { ENTRIES as HARDENED } from "./support.js";

const ENTRIES = [...HARDENED, { file: "session-start", event: "SessionStart" }] as const;

type Hook = { type: string; args?: string[]; tool?: string; server?: string };

describe("the hardening suite's entries", () => {
  it("are the entry bundles in plugin/dist/hooks, each running its own event", () => {
    const bundles = readdirSync(join(PLUGIN_ROOT, "dist", "hooks")).filter((f) => f.endsWith(".js") && f !== "runtime.js");
    expect(ENTRIES.map((e) => `${e.file}.js`).sort()).toEqual(bundles.sort());
    for (const e of ENTRIES) expect(readFileSync(join(PLUGIN_ROOT, "dist", "hooks", `${e.file}.js`), "utf8")).toContain(`"${e.event}"`);
  });

  it("are the events hooks.json registers and the routes answer; each served one goes to the server's tool, the others to their bundle", () => {
    const hooks = JSON.parse(readFileSync(join(PLUGIN_ROOT, "hooks", "hooks.json"), "utf8")).hooks as Record<
      string,
      Array<{ hooks: Hook[] }>
    >;
    expect(Object.keys(hooks).sort()).toEqual(ENTRIES.map((e) => e.event).sort());
    expect(Object.keys(HOOK_ROUTES).sort()).toEqual(ENTRIES.map((e) => e.event).sort());
    for (const e of ENTRIES) {
      const hook = hooks[e.event]![0]!.hooks[0]!;
      const served = (SERVED as Record<string, { tool: string }>)[e.event];
      if (served) expect(hook).toMatchObject({ type: "mcp_tool", server: "plugin:utility:hooks", tool: served.tool });
      else expect(hook).toMatchObject({ type: "command", args: [`\${CLAUDE_PLUGIN_ROOT}/dist/hooks/${e.file}.js`] });
    }
  });
});
