/**
 * The hook server's front (src/server/front.ts, dist/server.js): what Claude
 * Code waits for at connect is answered without the runtime, which loads
 * once `tools/list` is answered (or at the first call, or a little after
 * `initialize`); calls are answered in order, by the runtime.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { front, markStarted, type Attached } from "../../src/server/front.js";

const root = mkdtempSync(join(tmpdir(), "utility-front-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const line = (id: number, method: string, params: object = {}) =>
  Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
const tick = () => new Promise((resolve) => setImmediate(resolve));

function setup(loadAfterMs = 10_000) {
  const out: any[] = [];
  const events: string[] = [];
  const troubles: string[][] = [];
  const runtime: Attached = {
    callTool: async (call) => {
      events.push(`call ${call.name}`);
      return { content: [{ type: "text", text: "{}" }] };
    },
    settle: () => void events.push("settle"),
  };
  const served = front({
    load: (early) => {
      events.push("load");
      troubles.push(early);
      return runtime;
    },
    mark: () => (events.push("mark"), "cannot write its marker (test)"),
    write: (text) => void out.push(JSON.parse(text)),
    loadAfterMs,
  });
  return { served, out, events, troubles };
}

describe("the server's front", () => {
  it("answers initialize and tools/list without loading the runtime, marks after initialize, and loads right after tools/list", async () => {
    const { served, out, events, troubles } = setup();
    served.push(line(1, "initialize", { protocolVersion: "2025-11-25" }));
    await tick();
    expect(out[0]).toMatchObject({ id: 1, result: { serverInfo: { name: "utility-hooks" }, capabilities: { tools: {} } } });
    expect(events).toEqual(["mark"]);
    served.push(line(2, "tools/list"));
    await tick();
    expect(out[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { tools: [] } });
    expect(served.loaded()).toBe(false);
    await tick();
    await tick();
    expect(served.loaded()).toBe(true);
    expect(events).toEqual(["mark", "load"]);
    // What went wrong before the runtime was there reaches it (its error log).
    expect(troubles).toEqual([["cannot write its marker (test)"]]);
  });

  it("a call before the runtime loaded loads it and is answered by it; each answer goes out before the next call starts", async () => {
    const { served, out, events } = setup();
    served.push(
      Buffer.concat([
        line(1, "initialize"),
        line(2, "tools/call", { name: "pre_tool_use", arguments: {} }),
        line(3, "tools/call", { name: "stop", arguments: {} }),
      ]),
    );
    for (let i = 0; i < 6; i++) await tick();
    expect(out.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(events).toEqual(["mark", "load", "call pre_tool_use", "settle", "call stop", "settle"]);
  });

  it("without tools/list the runtime loads a little after initialize", async () => {
    const { served, events } = setup(20);
    served.push(line(1, "initialize"));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(events).toEqual(["mark", "load"]);
  });

  it("ping and unknown methods need no runtime", async () => {
    const { served, out } = setup();
    served.push(Buffer.concat([line(1, "ping"), line(2, "resources/list")]));
    await tick();
    await tick();
    expect(out[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(out[1].error.code).toBe(-32601);
    expect(served.loaded()).toBe(false);
  });

  it("the marker names Claude Code's pid (its parent when CLAUDE_PID is absent)", () => {
    const dir = join(root, "data");
    expect(markStarted({ UTILITY_DATA_DIR: dir }, 4242)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, "servers", "4242.json"), "utf8"))).toMatchObject({ claudePid: 4242, pid: process.pid });
    expect(markStarted({ UTILITY_DATA_DIR: join(dir, "servers", "4242.json") }, 1)).toMatch(/^cannot write its marker/);
  });
});
