// A session's hook server, driven as Claude Code 2.1.328 drives it, from the
// plugin's own plugin/hooks/hooks.json: one `node dist/server.js` for the
// session, and each served event as a tools/call whose arguments are its
// entry's `${field}` templates filled from the hook input as Claude Code fills
// them (a string as it is, an object as JSON, a boolean as a word, absent as
// ""). The answer is the hook's JSON output ({} for none); trouble goes where
// the plugin puts it (the data folder's errors.jsonl). For tools that run the
// built hooks outside Claude Code (scripts/eval/run.mjs).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PLUGIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "plugin");

/** A template filled as Claude Code fills it. */
function filled(template, input) {
  return template.replace(/\$\{(\w+)\}/g, (_all, field) => {
    const value = input[field];
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  });
}

/** Starts the server with `env`; `call(event, input)` answers one hook, `close()` ends it as Claude Code does. */
export async function startHookServer(env) {
  const hooks = JSON.parse(readFileSync(join(PLUGIN, "hooks", "hooks.json"), "utf8")).hooks;
  const child = spawn(process.execPath, [join(PLUGIN, "dist", "server.js")], { env, stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  let next = 1;
  let buffer = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const exited = new Promise((done) => child.once("exit", done));
  const request = (method, params) =>
    new Promise((done) => {
      const id = next++;
      waiting.set(id, done);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hook-server", version: "0" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    async call(event, input) {
      const hook = hooks[event]?.[0]?.hooks?.[0];
      if (hook?.type !== "mcp_tool") throw new Error(`${event} is not served by the hook server (plugin/hooks/hooks.json)`);
      const args = Object.fromEntries(Object.entries(hook.input).map(([key, template]) => [key, filled(template, input)]));
      const answer = await request("tools/call", { name: hook.tool, arguments: args });
      if (answer.error) throw new Error(`${event}: ${answer.error.message}`);
      return JSON.parse(answer.result.content[0].text);
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
