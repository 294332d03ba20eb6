/**
 * The way a hook's input reaches the server: the plugin's hooks.json sends
 * exactly the fields the server reads back, for every event it answers, and
 * the server reads them back as the command hooks get them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWN_MCP_SERVER } from "../../src/engine/tools.js";
import { eventOfTool, hookInputOf, toolResultOf } from "../../src/server/hook-call.js";
import { HOOK_EVENT_NAMES, servedWiring } from "../../src/hooks/events.js";
import { inputTemplate } from "../../src/hooks/hooks-json.js";
import { optionEnvName } from "../../src/optin/options.js";
import { PLUGIN_ROOT } from "../support/paths.js";

interface Hook {
  type: string;
  server?: string;
  tool?: string;
  input?: Record<string, string>;
  onFailure?: string;
  timeout?: number;
}
const hooks = JSON.parse(readFileSync(join(PLUGIN_ROOT, "hooks", "hooks.json"), "utf8")).hooks as Record<
  string,
  { matcher?: string; hooks: Hook[] }[]
>;
const manifest = JSON.parse(readFileSync(join(PLUGIN_ROOT, ".claude-plugin", "plugin.json"), "utf8"));

describe("hooks.json wires every served event to the server", () => {
  const served = HOOK_EVENT_NAMES.filter((event) => servedWiring(event));

  it("seven events are served; the other two stay command hooks", () => {
    expect(served).toHaveLength(7);
  });

  it.each(served)("%s: one mcp_tool hook, its tool, its input templates", (event) => {
    const entries = hooks[event]!;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.hooks).toHaveLength(1);
    const hook = entries[0]!.hooks[0]!;
    expect(hook).toMatchObject({ type: "mcp_tool", server: `plugin:utility:${OWN_MCP_SERVER}`, tool: servedWiring(event)!.tool });
    expect(hook.input).toEqual(inputTemplate(servedWiring(event)!.fields));
    expect(eventOfTool(hook.tool!)).toBe(event);
  });

  it("a tool the server does not serve names no event", () => {
    expect(eventOfTool("session_start")).toBeUndefined();
    expect(eventOfTool("")).toBeUndefined();
  });

  it("PreToolUse blocks when the server cannot answer (a gated call is never let through undecided), on every tool", () => {
    expect(hooks.PreToolUse![0]!.matcher).toBe("*");
    expect(hooks.PreToolUse![0]!.hooks[0]!.onFailure).toBe("block");
  });

  it("a prompt or a compaction is never blocked by the plugin's trouble", () => {
    for (const event of ["UserPromptSubmit", "PreCompact", "Stop", "SubagentStop"])
      expect(hooks[event]![0]!.hooks[0]!.onFailure).toBe("continue");
  });

  it.each(["SessionStart", "SessionEnd"])("%s stays a command hook: Claude Code runs no mcp_tool hook on it", (event) => {
    const file = event === "SessionStart" ? "session-start" : "session-end";
    expect(hooks[event]![0]!.hooks[0]).toMatchObject({
      type: "command",
      command: "node",
      args: [`\${CLAUDE_PLUGIN_ROOT}/dist/hooks/${file}.js`],
    });
  });

  it("the manifest declares the server under the name the hooks and the own-tool rule use, and passes it every option", () => {
    expect(Object.keys(manifest.mcpServers)).toEqual([OWN_MCP_SERVER]);
    const server = manifest.mcpServers[OWN_MCP_SERVER];
    expect(server).toMatchObject({ command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/dist/server.js"] });
    const expected = Object.fromEntries(Object.keys(manifest.userConfig).map((key) => [optionEnvName(key), `\${user_config.${key}}`]));
    expect(server.env).toEqual(expected);
  });
});

describe("hookInputOf", () => {
  it("drops the fields Claude Code filled with nothing, reads the tool's input back from JSON", () => {
    expect(
      hookInputOf({
        hook_event_name: "PreToolUse",
        session_id: "s1",
        agent_id: "",
        agent_type: "",
        tool_name: "Bash",
        tool_input: '{"command":"echo hi","n":[1,2]}',
        tool_use_id: "toolu_1",
      }),
    ).toEqual({
      hook_event_name: "PreToolUse",
      session_id: "s1",
      tool_name: "Bash",
      tool_input: { command: "echo hi", n: [1, 2] },
      tool_use_id: "toolu_1",
    });
  });

  it("reads stop_hook_active back as a boolean, and keeps a value it cannot read for the schema to name", () => {
    expect(hookInputOf({ stop_hook_active: "true" })).toEqual({ stop_hook_active: true });
    expect(hookInputOf({ stop_hook_active: "false" })).toEqual({ stop_hook_active: false });
    expect(hookInputOf({ stop_hook_active: "maybe", tool_input: "{cut" })).toEqual({ stop_hook_active: "maybe", tool_input: "{cut" });
  });

  it("keeps a final message that looks like JSON as the text it is", () => {
    expect(hookInputOf({ last_assistant_message: '{"a":1}' })).toEqual({ last_assistant_message: '{"a":1}' });
  });
});

describe("toolResultOf", () => {
  it("answers the hook's JSON output as text, and {} for no decision, never as an error", () => {
    const output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "r" } };
    expect(toolResultOf({ output })).toEqual({ content: [{ type: "text", text: JSON.stringify(output) }] });
    expect(toolResultOf({})).toEqual({ content: [{ type: "text", text: "{}" }] });
  });
});
