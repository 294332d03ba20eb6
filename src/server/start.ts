// The hook server's entry point (dist/server.js): the small front (./front.ts) answers what Claude Code waits for at
// connect; the server itself lives in the shared runtime bundle (dist/hooks/runtime.js), loaded right after.
import { createRequire } from "node:module";
import { endWithClaudeCode, front, markStarted } from "./front.js";
import type * as Runtime from "./runtime.js";

const load = createRequire(import.meta.url);
endWithClaudeCode();
const served = front({
  mark: () => markStarted(process.env, process.ppid),
  load: (troubles) => (load("./hooks/runtime.js") as typeof Runtime).attach(troubles),
});
process.stdin.on("data", (chunk: Buffer) => served.push(chunk));
