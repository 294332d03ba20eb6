#!/usr/bin/env node
// The floor of a warm hook, for the client benchmark (scripts/bench/client.mjs):
// a minimal MCP stdio server whose one tool answers every PreToolUse with {}
// (no decision), at once, or once the call's own line is in the transcript
// (`--wait-line`: what a gated call must wait for, SPEC §4 and §11, polled
// every 5 ms as the plugin polls; `--record FILE` notes each wait). `--http PORT` also answers http hooks on
// 127.0.0.1:PORT the same way.
import { appendFileSync, closeSync, openSync, readSync, fstatSync } from "node:fs";
import { createServer } from "node:http";

const waitLine = process.argv.includes("--wait-line");
/** `--record FILE`: one line per call with how long it waited for its line (the yardstick of a gated call's wait). */
const recordAt = process.argv.indexOf("--record");
const httpAt = process.argv.indexOf("--http");

/** Polls the tail of the transcript for the call's id; gives up after 3 s, as the plugin does. */
function lineWritten(path, id) {
  const started = Date.now();
  return new Promise((resolve) => {
    const look = () => {
      try {
        const fd = openSync(path, "r");
        try {
          const size = fstatSync(fd).size;
          const length = Math.min(size, 256 * 1024);
          const buffer = Buffer.alloc(length);
          readSync(fd, buffer, 0, length, size - length);
          if (buffer.includes(`"id":"${id}"`)) return resolve(true);
        } finally {
          closeSync(fd);
        }
      } catch {
        // not there yet
      }
      if (Date.now() - started > 3000) return resolve(false);
      setTimeout(look, 5);
    };
    look();
  });
}

async function answer(args) {
  if (waitLine && args.transcript_path && args.tool_use_id) {
    const started = process.hrtime.bigint();
    const found = await lineWritten(args.transcript_path, args.tool_use_id);
    const waitedMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (recordAt > 0) appendFileSync(process.argv[recordAt + 1], `${JSON.stringify({ waitedMs, found })}\n`);
  }
  return "{}";
}

if (httpAt > 0) {
  createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      let input = {};
      try {
        input = JSON.parse(body);
      } catch {
        // answer {} all the same
      }
      res.setHeader("content-type", "application/json");
      res.end(await answer(input));
    });
  }).listen(Number(process.argv[httpAt + 1]), "127.0.0.1");
}

const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    if (m.method === "initialize")
      send({
        jsonrpc: "2.0",
        id: m.id,
        result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "bare", version: "0" } },
      });
    else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [] } });
    else if (m.method === "tools/call")
      void answer(m.params.arguments ?? {}).then((text) =>
        send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text }] } }),
      );
    else send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } });
  }
});
process.stdin.on("end", () => process.exit(0));
