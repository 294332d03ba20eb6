import { describe, expect, it } from "vitest";
import { answerLine, LineSplitter, type ToolCall } from "../../src/server/protocol.js";

const info = { name: "utility-hooks", version: "0" };
const none = async (): Promise<never> => {
  throw new Error("no tool call expected");
};
const line = (message: unknown) => JSON.stringify(message);

describe("the MCP messages the hook server answers", () => {
  it("initialize: echoes the client's protocol version, offers tools", async () => {
    const reply = await answerLine(
      line({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25" } }),
      info,
      none,
    );
    expect(reply).toMatchObject({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: info },
    });
  });

  it("tools/list: no tool, so the model is offered none (a hook may still call one)", async () => {
    expect(await answerLine(line({ jsonrpc: "2.0", id: 1, method: "tools/list" }), info, none)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [] },
    });
  });

  it("server/discover and anything else unknown: method not found, so Claude Code falls back to initialize", async () => {
    const reply = await answerLine(line({ jsonrpc: "2.0", id: "d-1", method: "server/discover", params: {} }), info, none);
    expect(reply).toEqual({ jsonrpc: "2.0", id: "d-1", error: { code: -32601, message: "method not found: server/discover" } });
  });

  it("notifications get no answer; ping gets an empty result", async () => {
    expect(await answerLine(line({ jsonrpc: "2.0", method: "notifications/initialized" }), info, none)).toBeUndefined();
    expect(
      await answerLine(line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }), info, none),
    ).toBeUndefined();
    expect(await answerLine(line({ jsonrpc: "2.0", id: 7, method: "ping" }), info, none)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
  });

  it("tools/call: hands over the name, the arguments and _meta, and answers with the tool's result", async () => {
    const calls: ToolCall[] = [];
    const reply = await answerLine(
      line({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "pre_tool_use", arguments: { tool_name: "Bash" }, _meta: { a: 1 } },
      }),
      info,
      async (call) => {
        calls.push(call);
        return { content: [{ type: "text", text: "{}" }] };
      },
    );
    expect(calls).toEqual([{ name: "pre_tool_use", arguments: { tool_name: "Bash" }, meta: { a: 1 } }]);
    expect(reply).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "{}" }] } });
  });

  it("names what is wrong with a message it cannot take", async () => {
    expect(await answerLine("{not json", info, none)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "not JSON" } });
    expect(await answerLine(line({ id: 4, method: "ping" }), info, none)).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(await answerLine(line({ jsonrpc: "2.0", id: 5, method: "tools/call", params: {} }), info, none)).toMatchObject({
      id: 5,
      error: { code: -32602, message: "tools/call needs a tool name" },
    });
  });
});

describe("LineSplitter", () => {
  it("yields whole lines across chunks, and keeps a line cut short for the next chunk", () => {
    const s = new LineSplitter();
    expect(s.push(Buffer.from('{"a":'))).toEqual([]);
    expect(s.push(Buffer.from('1}\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(s.push(Buffer.from(":3}\n\n"))).toEqual(['{"c":3}']);
  });

  it("does not split a character whose bytes arrive in two chunks", () => {
    const bytes = Buffer.from('"é"\n');
    const s = new LineSplitter();
    expect(s.push(bytes.subarray(0, 2))).toEqual([]);
    expect(s.push(bytes.subarray(2))).toEqual(['"é"']);
  });
});
