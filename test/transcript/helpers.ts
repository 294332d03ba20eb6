// Synthetic transcript lines in the 2.1.x shape, and temp files to hold them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRANSCRIPTS } from "../support/paths.js";

/** The real transcripts (test/fixtures/transcripts). */
export const FIXTURES_DIR = TRANSCRIPTS;

let counter = 0;
const nextUuid = () => `uuid-${++counter}`;

interface LineExtra {
  sidechain?: boolean;
  agentId?: string;
  uuid?: string;
}

function envelope(type: string, extra: LineExtra) {
  return {
    parentUuid: null,
    isSidechain: extra.sidechain ?? false,
    userType: "external",
    sessionId: "session-1",
    version: "2.1.38",
    type,
    uuid: extra.uuid ?? nextUuid(),
    timestamp: "2026-02-10T21:11:56.846Z",
    ...(extra.agentId ? { agentId: extra.agentId } : {}),
  };
}

export function prompt(text: string, extra: LineExtra = {}): string {
  return JSON.stringify({ ...envelope("user", extra), message: { role: "user", content: text } });
}

export function meta(text: string, extra: LineExtra = {}): string {
  return JSON.stringify({
    ...envelope("user", extra),
    isMeta: true,
    message: { role: "user", content: [{ type: "text", text }] },
  });
}

export type Block =
  { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown } | { type: "thinking"; thinking: string };

export const text = (value: string): Block => ({ type: "text", text: value });
export const call = (id: string, name = "Read", input: unknown = { file_path: `/x/${id}` }): Block => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** One line of an assistant message; Claude Code writes one block per line, sharing message.id. */
export function assistant(messageId: string, blocks: Block[], extra: LineExtra = {}): string {
  return JSON.stringify({
    ...envelope("assistant", extra),
    message: { model: "claude-opus-4-6", id: messageId, type: "message", role: "assistant", content: blocks },
  });
}

export function result(toolUseId: string, content: unknown = "ok", extra: LineExtra & { isError?: boolean } = {}): string {
  return JSON.stringify({
    ...envelope("user", extra),
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: toolUseId, content, ...(extra.isError ? { is_error: true } : {}) }],
    },
  });
}

export function progress(toolUseId: string): string {
  return JSON.stringify({
    ...envelope("progress", {}),
    data: { type: "hook_progress", hookEvent: "PreToolUse", hookName: "PreToolUse:Bash", command: "x" },
    toolUseID: toolUseId,
  });
}

export function compactBoundary(): string {
  return JSON.stringify({ ...envelope("system", {}), subtype: "compact_boundary", content: "Conversation compacted" });
}

export function compactSummary(): string {
  return JSON.stringify({
    ...envelope("user", {}),
    isCompactSummary: true,
    message: { role: "user", content: "This session is being continued from a previous conversation..." },
  });
}

export function snapshot(): string {
  return JSON.stringify({ type: "file-history-snapshot", messageId: nextUuid(), snapshot: {} });
}

export function jsonl(lines: string[]): string {
  return lines.map((line) => `${line}\n`).join("");
}

export interface TempDir {
  path: string;
  file(name: string, content: string | Uint8Array): string;
  remove(): void;
}

export function tempDir(): TempDir {
  const path = mkdtempSync(join(tmpdir(), "utility-transcript-"));
  return {
    path,
    file(name, content) {
      const file = join(path, name);
      writeFileSync(file, content);
      return file;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}
