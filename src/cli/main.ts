#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli } from "./run.js";

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readFileSync(0, "utf8"),
  cwd: process.cwd(),
  env: process.env,
  stdoutIsTTY: process.stdout.isTTY === true,
  now: () => Date.now(),
}).then((code) => {
  process.exitCode = code;
});
