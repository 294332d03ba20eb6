// The definitions of the subagents a session ran, read before replay (whose
// core is pure and synchronous): each subagent file's type from the
// `agent-<id>.meta.json` Claude Code writes beside it, and the gate its
// definition brings, found as the hooks find it at SubagentStart
// (src/claude/agent-definition.ts), from the folder the subagent worked in.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import type { Env } from "../claude/places.js";
import type { GateSource } from "../engine/session/state.js";
import { agentGateSource } from "../claude/agent-definition.js";

export interface SubagentDefinition {
  agentType: string;
  /** The gate its definition brings; none for a built-in type or a definition that opts in to nothing. */
  definition?: GateSource;
}

/** By subagent file path. */
export type SubagentDefinitions = ReadonlyMap<string, SubagentDefinition>;

/** How much of a subagent file is read for the folder it worked in (its first lines carry `cwd`). */
const HEAD_BYTES = 64 * 1024;

/** The type Claude Code recorded for a subagent file (`agent-<id>.meta.json` beside it), or undefined. */
export function agentTypeOf(subagentFile: string): string | undefined {
  try {
    const meta = JSON.parse(readFileSync(subagentFile.replace(/\.jsonl$/, ".meta.json"), "utf8")) as unknown;
    const type = meta !== null && typeof meta === "object" ? (meta as Record<string, unknown>).agentType : undefined;
    return typeof type === "string" && type !== "" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** The folder a transcript's session worked in: the first `cwd` among its first lines. */
export function workingFolderOf(file: string): string | undefined {
  let head: string;
  try {
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      head = buffer.toString("utf8", 0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (const line of head.split("\n")) {
    try {
      const cwd = (JSON.parse(line) as Record<string, unknown>).cwd;
      if (typeof cwd === "string" && cwd !== "") return cwd;
    } catch {
      // A line cut at the end of the head, or no JSON: the next one.
    }
  }
  return undefined;
}

/** Each subagent file's type and definition (files with no recorded type are left out); one search per type and folder. */
export async function subagentDefinitions(files: readonly string[], env: Env): Promise<Map<string, SubagentDefinition>> {
  const found = new Map<string, SubagentDefinition>();
  const searched = new Map<string, GateSource | undefined>();
  for (const file of files) {
    const agentType = agentTypeOf(file);
    if (agentType === undefined) continue;
    const projectDir = workingFolderOf(file);
    const key = `${agentType}\u0000${projectDir ?? ""}`;
    if (!searched.has(key))
      searched.set(
        key,
        await agentGateSource({ agentType, env, ...(projectDir ? { projectDir } : {}), ...(env.HOME ? { home: env.HOME } : {}) }),
      );
    const definition = searched.get(key);
    found.set(file, { agentType, ...(definition ? { definition } : {}) });
  }
  return found;
}
