// Runs one bundled hook entry (argv[2]) as Claude Code would, and on exit
// writes what the process read from files, as the kernel counts it
// (/proc/self/io rchar), to stderr's last line: no counter in the product.
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

process.on("exit", () => {
  const rchar = /rchar:\s*(\d+)/.exec(readFileSync("/proc/self/io", "utf8"))[1];
  writeSync(2, `\nREAD-METER rchar=${rchar}\n`);
});
await import(pathToFileURL(process.argv[2]).href);
