/**
 * The hook server: the plugin's own MCP server (`.claude-plugin/plugin.json`,
 * `mcpServers.hooks`), which Claude Code starts with the session, keeps warm,
 * starts again on the next hook call after it died, and stops when the
 * session ends (docs/decisions/0002-warm-hooks.md). Nothing but protocol
 * lines may reach stdout.
 */
import { dataDir } from "../state/paths.js";
import { recordError } from "../hooks/run.js";
import { serverEnv } from "./env.js";
import { pruneMarkers, writeMarker } from "./marker.js";
import { answerLine, LineSplitter } from "./protocol.js";
import { hookServer } from "./serve.js";

const env = serverEnv(process.env, process.ppid);
const dir = dataDir(env);
const trouble = (message: string) => recordError(dir, "server", `utility hook server: ${message}`);

try {
  writeMarker(dir, { pid: process.pid, claudePid: Number(env.CLAUDE_PID), startedAt: new Date().toISOString() });
  pruneMarkers(dir, Number(env.CLAUDE_PID), alive);
} catch (error) {
  // Only the SessionStart check reads it; the hooks are answered all the same.
  trouble(`cannot write its marker (${error instanceof Error ? error.message : String(error)})`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function end(code: number): never {
  process.exit(code);
}

// An exception outside a call leaves the process in a state nobody checked: end, and Claude Code starts a fresh
// server on the next hook call (the call in flight is refused or let through as its hooks.json entry says).
process.on("uncaughtException", (error) => {
  trouble(`stopped on ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  end(1);
});
process.on("SIGTERM", () => end(0));
process.on("SIGINT", () => end(0));
process.stdout.on("error", () => end(0)); // Claude Code closed the pipe

const server = hookServer(env);
const info = { name: "utility-hooks", version: "0.1.0" };
const lines = new LineSplitter();
process.stdin.on("data", (chunk: Buffer) => {
  for (const line of lines.push(chunk)) {
    answerLine(line, info, (call) => server.callTool(call)).then(
      (reply) => {
        if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
      },
      (error: unknown) => trouble(`a message went unanswered (${error instanceof Error ? error.message : String(error)})`),
    );
  }
});
process.stdin.on("end", () => end(0));

// The skill and agent definition reader (frontmatter, YAML) is loaded when a definition is first read: in the
// server, load it now, while the session starts, so that the first gated call does not pay for it.
setTimeout(() => void import("../optin/read.js").catch(() => undefined), 0);
