/**
 * Red team 3 (class 3): the status line's and MCP servers' commands now count
 * (src/engine/hook-commands.ts). Forms that name the script elsewhere than a
 * command word: `bash -c '…'` as a status line, an MCP server's `env`
 * (NODE_OPTIONS --require), an MCP server run from a folder
 * (`uv run --directory tools server.py`). Promise: a gated Write of the
 * script Claude Code will run is refused, the file kept.
 */
import { join } from "node:path";
import { describe, it } from "vitest";
import { FIXTURES } from "../../support/paths.js";
import { expectWriteRefused, type StartedScript } from "./hook-script-write.js";

const SERVER = join(FIXTURES, "e2e", "mcp-exec", "server.mjs");
const FORMS: StartedScript[] = [
  {
    name: "control: MCP server node tools/srv.mjs",
    file: "tools/srv.mjs",
    config: { ".mcp.json": { mcpServers: { s: { command: "node", args: ["tools/srv.mjs"] } } } },
  },
  {
    name: "status line bash -c 'node tools/status.js'",
    file: "tools/status.js",
    config: { ".claude/settings.json": { statusLine: { type: "command", command: "bash -c 'node tools/status.js'" } } },
  },
  {
    name: "MCP server env NODE_OPTIONS=--require ./tools/boot.cjs",
    file: "tools/boot.cjs",
    config: {
      ".mcp.json": { mcpServers: { s: { command: "node", args: [SERVER], env: { NODE_OPTIONS: "--require ./tools/boot.cjs" } } } },
    },
  },
  {
    name: "MCP server uv run --directory tools server.py",
    file: "tools/server.py",
    config: { ".mcp.json": { mcpServers: { s: { command: "uv", args: ["run", "--directory", "tools", "server.py"] } } } },
  },
];
describe.each(FORMS)("$name", (form) => {
  it("a gated Write of the script is refused", async () => {
    await expectWriteRefused(form);
  });
});
