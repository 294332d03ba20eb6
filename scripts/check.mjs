#!/usr/bin/env node
// The static checks `npm test` runs before the tests: the typecheck, ESLint and
// Prettier, started at once (each is one single-threaded process, so on 2 cores
// they take about half the time they take one after another). Each one's output
// is printed whole when it ends, under its name; the exit code is 1 if any failed.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);

const CHECKS = [
  { name: "tsc --noEmit -p .", command: bin("tsc"), args: ["--noEmit", "-p", "."] },
  { name: "eslint .", command: bin("eslint"), args: ["."] },
  { name: "prettier --check .", command: bin("prettier"), args: ["--check", "."] },
];

function run({ name, command, args }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (d) => chunks.push(d));
    child.stderr.on("data", (d) => chunks.push(d));
    let ended = false;
    const done = (ok, why) => {
      if (ended) return; // a process that cannot start reports "error", then may "close"
      ended = true;
      const output = Buffer.concat(chunks).toString("utf8").trimEnd();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`> ${name}: ${ok ? "ok" : `FAILED (${why})`} in ${seconds} s`);
      if (output !== "") console.log(output);
      resolve(ok);
    };
    child.once("error", (error) => done(false, error.message));
    child.once("close", (code, signal) => done(code === 0, signal ? `killed by ${signal}` : `exit ${code}`));
  });
}

const results = await Promise.all(CHECKS.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
