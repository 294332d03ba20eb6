// dist/statusline.js: the statusLine command (README, "Status line"). The same
// as `utility statusline`, without the CLI's argument parsing loaded.
import { readFileSync } from "node:fs";
import { runStatusLine } from "./run.js";

const result = runStatusLine(readFileSync(0, "utf8"), process.env);
process.stdout.write(`${result.line}\n`);
if (result.code !== 0) process.stderr.write(`${result.line}\n`);
process.exitCode = result.code;
