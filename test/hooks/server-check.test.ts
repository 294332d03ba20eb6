import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeMarker } from "../../src/state/server-marker.js";
import { keptOffMessage, SERVER_START_WAIT_MS, sessionStart, type SentinelProbe } from "../../src/hooks/server-check.js";
import { fakeContext, SESSION } from "../hooks/fake-context.js";

const root = mkdtempSync(join(tmpdir(), "utility-sentinel-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function setup(probe: Partial<SentinelProbe> = {}) {
  const ctx = fakeContext();
  ctx.dataDir = join(root, `data-${++n}`);
  ctx.env = { CLAUDE_PID: "4242", CLAUDE_PLUGIN_ROOT: "/plugins/utility" };
  let clock = 0;
  ctx.now = () => clock;
  const slept: number[] = [];
  const full: SentinelProbe = {
    commandLine: () => ["/usr/bin/claude", "-p", "hi"],
    managedSettings: () => [],
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    ...probe,
  };
  const run = () =>
    sessionStart({ session_id: SESSION, transcript_path: "/t.jsonl", hook_event_name: "SessionStart", source: "startup" }, ctx, full);
  return { ctx, run, slept, advance: (ms: number) => (clock += ms) };
}

describe("SessionStart: is the hook server running for this Claude Code?", () => {
  it("says nothing when the server's marker is there", async () => {
    const { ctx, run, slept } = setup();
    writeMarker(ctx.dataDir, { pid: 1, claudePid: 4242, startedAt: "t" });
    expect(await run()).toEqual({});
    expect(slept).toEqual([]);
  });

  it("waits for a server that is starting, and says nothing once its marker comes", async () => {
    const { ctx, run, slept } = setup({
      sleep: async () => {
        if (slept.push(1) === 3) writeMarker(ctx.dataDir, { pid: 1, claudePid: 4242, startedAt: "t" });
      },
    });
    expect(await run()).toEqual({});
    expect(slept).toHaveLength(3);
  });

  it("a server of another Claude Code process does not count", async () => {
    const { ctx, run } = setup();
    writeMarker(ctx.dataDir, { pid: 1, claudePid: 999, startedAt: "t" });
    expect((await run()).output).toBeDefined();
  });

  it("with --strict-mcp-config it does not wait, and says why and how to go on", async () => {
    const { run, slept } = setup({ commandLine: () => ["claude", "--strict-mcp-config", "-p", "x"] });
    const out = (await run()).output as { systemMessage: string; hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(slept).toEqual([]);
    expect(out.systemMessage).toBe(keptOffMessage("strict", "/plugins/utility", "utility@<marketplace>"));
    expect(out.hookSpecificOutput).toEqual({ hookEventName: "SessionStart", additionalContext: out.systemMessage });
    expect(out.systemMessage).toContain("start Claude Code without --strict-mcp-config");
  });

  it("names the organization's MCP policy when managed settings list servers, after waiting its time", async () => {
    const { run, slept } = setup({ managedSettings: () => ['{"deniedMcpServers":[{"serverName":"x"}]}'] });
    const out = (await run()).output as { systemMessage: string };
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(SERVER_START_WAIT_MS);
    expect(out.systemMessage).toBe(keptOffMessage("policy", "/plugins/utility", "utility@<marketplace>"));
    expect(out.systemMessage).toContain('{"serverCommand": ["node", "/plugins/utility/dist/server.js"]}');
  });

  it("otherwise points at /mcp", async () => {
    const { run } = setup({ managedSettings: () => ["not json", '{"model":"x"}'] });
    expect(((await run()).output as { systemMessage: string }).systemMessage).toBe(
      keptOffMessage("unknown", "/plugins/utility", "utility@<marketplace>"),
    );
  });

  it("every message says that every tool call is refused, and how to turn the plugin off", () => {
    for (const cause of ["strict", "policy", "unknown"] as const) {
      const text = keptOffMessage(cause, undefined);
      expect(text).toContain("plugin:utility:hooks");
      expect(text).toContain("Claude Code refuses every tool call");
      expect(text).toContain("claude plugin disable utility@<marketplace>");
      expect(keptOffMessage(cause, undefined, "utility@acme")).toContain("claude plugin disable utility@acme).");
    }
  });

  it("names the plugin by the id its data folder stands for", async () => {
    const { ctx, run } = setup({ commandLine: () => ["claude", "--strict-mcp-config"] });
    ctx.dataDir = join(root, "utility-utility-marketplace");
    const out = (await run()).output as { systemMessage: string };
    expect(out.systemMessage).toContain("claude plugin disable utility@utility-marketplace).");
  });

  it("without Claude Code's pid it cannot look, and says nothing", async () => {
    const { ctx, run } = setup();
    ctx.env = {};
    expect(await run()).toEqual({});
  });
});
