/**
 * Red team 4 (class 3): an MCP server or status line whose program is named
 * by an absolute path (node's own path, /usr/bin/env node, /bin/bash): the
 * script it runs (no extension) is not read by hook-commands.ts, which only
 * recognises the bare names `node`, `bash`, `env`. Promise: a gated Write of
 * the script Claude Code will run is refused, the file kept.
 */
import { describe, it } from "vitest";
import { expectWriteRefused, type StartedScript } from "./hook-script-write.js";

const NODE = process.execPath;
const FORMS: StartedScript[] = [
  {
    name: "control: MCP server node tools/srv",
    file: "tools/srv",
    config: { ".mcp.json": { mcpServers: { s: { command: "node", args: ["tools/srv"] } } } },
  },
  {
    name: "MCP server by node's absolute path: <execPath> tools/srv",
    file: "tools/srv",
    config: { ".mcp.json": { mcpServers: { s: { command: NODE, args: ["tools/srv"] } } } },
  },
  {
    name: "MCP server /usr/bin/env node tools/srv",
    file: "tools/srv",
    config: { ".mcp.json": { mcpServers: { s: { command: "/usr/bin/env", args: ["node", "tools/srv"] } } } },
  },
  {
    name: "status line /bin/bash tools/status",
    file: "tools/status",
    config: { ".claude/settings.json": { statusLine: { type: "command", command: "/bin/bash tools/status" } } },
  },
];
describe.each(FORMS)("$name", (form) => {
  it("a gated Write of the script is refused", async () => {
    await expectWriteRefused(form);
  });
});
