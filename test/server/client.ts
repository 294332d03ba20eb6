/**
 * A test's MCP client for the bundled hook server (dist/server.js), speaking
 * to it over stdio as Claude Code does: initialize, then tools/call.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { PLUGIN_ROOT } from "../support/paths.js";

export const SERVER = process.env.UTILITY_TEST_SERVER ?? join(PLUGIN_ROOT, "dist", "server.js");

export interface ServerClient {
  child: ChildProcessWithoutNullStreams;
  request(method: string, params?: unknown): Promise<any>;
  /** A hook's call: the arguments as the hooks.json templates fill them (every value a string). */
  call(
    tool: string,
    args: Record<string, string>,
    meta?: Record<string, unknown>,
  ): Promise<{ content: { text: string }[]; isError?: boolean }>;
  stderr(): string;
  close(): Promise<number | null>;
}

export async function startServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerClient> {
  const child = spawn(process.execPath, [...nodeArgs, SERVER], { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let buffer = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      const w = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) w?.reject(new Error(message.error.message));
      else w?.resolve(message.result);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let next = 1;
  const request = (method: string, params?: unknown) =>
    new Promise<any>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`);
    });
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    child,
    request,
    call: (tool, args, meta) => request("tools/call", { name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) }),
    stderr: () => stderr,
    close: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** The arguments of a PreToolUse hook call, as Claude Code fills the templates. */
export function preToolUseArgs(input: {
  session_id: string;
  transcript_path: string;
  cwd: string;
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  agent_id?: string;
}): Record<string, string> {
  return {
    hook_event_name: "PreToolUse",
    session_id: input.session_id,
    transcript_path: input.transcript_path,
    cwd: input.cwd,
    prompt_id: "",
    permission_mode: "default",
    agent_id: input.agent_id ?? "",
    agent_type: "",
    tool_name: input.tool_name,
    tool_input: JSON.stringify(input.tool_input),
    tool_use_id: input.tool_use_id,
  };
}
