/**
 * The hook server's process: the plugin's own MCP server
 * (`.claude-plugin/plugin.json`, `mcpServers.hooks`), which Claude Code starts
 * with the session, keeps warm, starts again on the next hook call after it
 * died, and stops when the session ends (docs/decisions/0002-warm-hooks.md).
 * Nothing but protocol lines may reach stdout.
 */
import { errorLine } from "../state/file-error.js";
import { dataDir } from "../state/paths.js";
import { recordError } from "../hooks/run.js";
import { serverEnv } from "./env.js";
import { pruneMarkers, writeMarker } from "../state/server-marker.js";
import { answerLine, LineSplitter } from "./protocol.js";
import { hookServer, type HookServer } from "./serve.js";
import { warmUp } from "./warm-up.js";
import { processAlive } from "../state/process-alive.js";

/**
 * Calls of a made-up session that warm the handlers. Measured in process: 5 made the first real call fast, 30 the
 * later ones too (about 2.9 → 2.1 ms), 12 about half of that; 24 costs about 130 ms of CPU (docs/speed.md).
 */
const WARM_UP_CALLS = 24;

type Trouble = (message: string) => void;

/** Says that a server started for this Claude Code (the SessionStart hook looks), and clears the markers of ones gone. */
function mark(dir: string, claudePid: number, trouble: Trouble): void {
  try {
    writeMarker(dir, { pid: process.pid, claudePid, startedAt: new Date().toISOString() });
    pruneMarkers(dir, claudePid, processAlive);
  } catch (error) {
    // Only the SessionStart check reads it; the hooks are answered all the same.
    trouble(`cannot write its marker (${errorLine(error)})`);
  }
}

/**
 * Ends with Claude Code: on stdin's end, a signal or a closed stdout. An
 * exception outside a call leaves the process in a state nobody checked:
 * end, and Claude Code starts a fresh server on the next hook call.
 */
function endWithClaudeCode(server: HookServer, trouble: Trouble): void {
  process.on("uncaughtException", (error) => {
    trouble(`stopped on ${errorLine(error)}`);
    process.exit(1);
  });
  // What the OTLP export has queued gets this long to go out (nothing when export is off).
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    server.close(END_FLUSH_MS).then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, end);
  process.stdout.on("error", end);
  process.stdin.on("end", end);
}

/** How long a server that is ending waits for the OTLP export's queue (SPEC §17). */
const END_FLUSH_MS = 2_000;

function answerStdin(server: HookServer, trouble: Trouble): void {
  const info = { name: "utility-hooks", version: "0.1.0" };
  const lines = new LineSplitter();
  process.stdin.on("data", (chunk: Buffer) => {
    for (const line of lines.push(chunk)) {
      answerLine(line, info, (call) => server.callTool(call)).then(
        (reply) => {
          // On Linux a write to a pipe is synchronous (Node, "A note on process I/O"): the answer is out before the writes it left.
          if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
          server.settle();
        },
        (error: unknown) => trouble(`a message went unanswered (${errorLine(error)})`),
      );
    }
  });
}

/** Starts serving on stdin and stdout, for the life of the process. */
export function serve(): void {
  const env = serverEnv(process.env, process.ppid);
  const dir = dataDir(env);
  const trouble: Trouble = (message) => recordError(dir, "server", `utility hook server: ${message}`);
  mark(dir, Number(env.CLAUDE_PID), trouble);
  const server = hookServer(env);
  endWithClaudeCode(server, trouble);
  answerStdin(server, trouble);
  // The skill and agent definition reader (frontmatter, YAML) is loaded when a definition is first read: in the
  // server, load it now, while the session starts, so that the first gated call does not pay for it; then warm
  // the handlers' code (./warm-up.ts).
  setTimeout(() => {
    import("../optin/read.js").then(
      () => warmUp({ calls: WARM_UP_CALLS, done: (failed) => failed && trouble(`could not warm up (${errorLine(failed)})`) }),
      () => undefined,
    );
  }, 0);
}
