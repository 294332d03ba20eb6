/**
 * Proves the end-to-end harness: the real Claude Code binary (2.1.328) runs
 * offline against the scripted model, plugin hooks fire, and what the model
 * is sent can be asserted on.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertRunOk, runClaude } from "./support/claude.js";
import { denyOutput, makeProbePlugin } from "./support/probe-plugin.js";
import { lastToolResults, routeByPrompt, sinceLastAssistant, startScriptedModel, text, toolUse } from "./support/scripted-model.js";
import { startClaudeTui, tmuxAvailable } from "./support/tmux.js";

describe("e2e harness", () => {
  it("scripted model: SSE, plain JSON, side requests and probes", async () => {
    const model = await startScriptedModel({ script: [[text("one"), toolUse("Bash", { command: "ls" }, "toolu_fixed")], [text("two")]] });
    try {
      const post = (body: unknown, path = "/v1/messages") =>
        fetch(model.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const tools = [{ name: "Bash", input_schema: { type: "object" } }];
      const sse = await (await post({ model: "m", stream: true, tools, messages: [{ role: "user", content: "hi" }] })).text();
      expect(sse).toMatch(/^event: message_start\n/);
      expect(sse).toContain('"partial_json"');
      expect(sse).toContain('"stop_reason":"tool_use"');
      expect(sse.trim().endsWith('data: {"type":"message_stop"}')).toBe(true);
      // A tool-less request is housekeeping: answered, no turn used.
      const side = await (await post({ model: "haiku", messages: [{ role: "user", content: "title?" }] })).json();
      expect(side).toMatchObject({ type: "message", role: "assistant", stop_reason: "end_turn" });
      const plain = await (await post({ model: "m", tools, messages: [{ role: "user", content: "again" }] })).json();
      expect(plain).toMatchObject({ content: [{ type: "text", text: "two" }], stop_reason: "end_turn" });
      expect((await post({ messages: [] }, "/v1/messages/count_tokens")).status).toBe(200);
      expect((await fetch(model.url + "/v1/models")).status).toBe(200);
      expect((await fetch(model.url + "/", { method: "HEAD" })).status).toBe(200);
      expect(model.requests.map((r) => r.kind)).toEqual(["main", "side", "main", "other", "other", "other"]);
      expect(model.turnsUsed()).toBe(2);
    } finally {
      await model.close();
    }
  });

  it("runs a scripted Bash call and sends its result back to the model", async () => {
    const run = await runClaude({
      prompt: "say hi",
      allowedTools: ["Bash"],
      script: [[text("Running it."), toolUse("Bash", { command: "echo hi", description: "Print hi" })], [text("It printed hi.")]],
    });
    const result = assertRunOk(run);
    expect(result.result).toBe("It printed hi.");
    expect(result.permission_denials).toEqual([]);

    const main = run.model.mainRequests();
    expect(main).toHaveLength(2);
    const [toolResult] = lastToolResults(main[1]!);
    expect(toolResult).toMatchObject({ is_error: false, text: "hi" });
    // The scripted tool_use id is the one Claude Code answers.
    expect(toolResult!.tool_use_id).toBe((main[0]!.reply![1] as { id: string }).id);
    // Nothing tried to leave the machine, and the transcript was written.
    expect(run.outbound).toEqual([]);
    expect(run.transcriptPath && existsSync(run.transcriptPath)).toBeTruthy();
    expect(run.transcript().some((l) => l.type === "assistant")).toBe(true);
    run.cleanup();
  });

  it("delivers a PreToolUse deny to the model and lists it in permission_denials", async () => {
    const plugin = makeProbePlugin({
      events: ["PreToolUse", "PostToolUse"],
      rules: [{ event: "PreToolUse", tool: "Bash", match: "forbidden", output: denyOutput("Write an action report first.") }],
    });
    const marker = join(plugin.dumpDir, "..", "ran.txt");
    const run = await runClaude({
      prompt: "try it",
      pluginDir: plugin.root,
      allowedTools: ["Bash"],
      script: [[toolUse("Bash", { command: `echo forbidden > ${marker}` })], [text("Refused, stopping.")]],
    });
    const result = assertRunOk(run);
    const denied = run.model.mainRequests()[0]!.reply![0] as { id: string };
    expect(result.permission_denials).toEqual([
      { tool_name: "Bash", tool_use_id: denied.id, tool_input: { command: `echo forbidden > ${marker}` } },
    ]);
    const [toolResult] = lastToolResults(run.model.mainRequests()[1]!);
    expect(toolResult).toMatchObject({ is_error: true, text: "PreToolUse:Bash hook error: Write an action report first." });
    expect(existsSync(marker)).toBe(false);
    // The hook saw the call; PostToolUse never ran for it.
    const pre = plugin.callsOf("PreToolUse");
    expect(pre).toHaveLength(1);
    expect(pre[0]!.input).toMatchObject({ tool_name: "Bash", tool_use_id: denied.id, hook_event_name: "PreToolUse" });
    expect(pre[0]!.env.CLAUDE_PLUGIN_ROOT).toBe(plugin.root);
    expect(plugin.callsOf("PostToolUse")).toHaveLength(0);
    run.cleanup();
    plugin.cleanup();
  });

  it("tells subagent requests apart and scripts them separately", async () => {
    const plugin = makeProbePlugin({
      events: ["PreToolUse", "SubagentStop"],
      agents: { helper: "---\nname: helper\ndescription: Helper for the harness test.\ntools: Bash\n---\n\nYou help.\n" },
    });
    const run = await runClaude({
      prompt: "delegate",
      pluginDir: plugin.root,
      allowedTools: ["Bash", "Agent"],
      script: [
        [
          toolUse("Agent", {
            subagent_type: "probe:helper",
            description: "Echo in a helper",
            prompt: "TASK-42: echo sub",
            run_in_background: false,
          }),
        ],
        [text("Main done.")],
      ],
      subagentScript: routeByPrompt([["TASK-42", [[toolUse("Bash", { command: "echo from-sub" })], [text("SUB DONE")]]]]),
    });
    assertRunOk(run);
    expect(run.model.mainRequests()).toHaveLength(2);
    expect(run.model.subagentRequests()).toHaveLength(2);
    expect(lastToolResults(run.model.subagentRequests()[1]!)[0]).toMatchObject({ is_error: false, text: "from-sub" });
    expect(sinceLastAssistant(run.model.mainRequests()[1]!).toolResults[0]!.text).toContain("SUB DONE");

    const subPre = plugin.callsOf("PreToolUse").find((c) => c.input.tool_name === "Bash")!;
    expect(subPre.input.agent_type).toBe("probe:helper");
    expect(typeof subPre.input.agent_id).toBe("string");
    const stop = plugin.callsOf("SubagentStop")[0]!;
    expect(stop.input.agent_transcript_path).toBe(
      join(run.transcriptPath!.replace(/\.jsonl$/, ""), "subagents", `agent-${subPre.input.agent_id}.jsonl`),
    );
    expect(run.transcriptPaths).toContain(stop.input.agent_transcript_path);
    run.cleanup();
    plugin.cleanup();
  });

  it.skipIf(!tmuxAvailable())("drives the interactive UI in tmux", async () => {
    const tui = await startClaudeTui({
      allowedTools: ["Bash"],
      script: [[text("Checking."), toolUse("Bash", { command: "echo tui-ok" })], [text("TUI answer arrived.")]],
    });
    try {
      await tui.waitForPrompt();
      await tui.type("hello from tmux");
      const screen = await tui.waitFor("TUI answer arrived.");
      expect(screen).toContain("hello from tmux");
      expect(lastToolResults(tui.model.mainRequests()[1]!)[0]).toMatchObject({ text: "tui-ok", is_error: false });
      expect(tui.outbound).toEqual([]);
    } finally {
      await tui.stop();
    }
    tui.cleanup();
  });
});
