// Building transcripts for replay tests: the 2.1 line builders of test/transcript, plus
// agent_progress copies and a quick way to replay text in hand.
import { bufferSource } from "../../src/transcript/source.js";
import { readAll } from "../../src/transcript/forward-reader.js";
import { replayEvents } from "../../src/replay/core.js";
import type { ReplayOptions } from "../../src/replay/types.js";
import { assistant, jsonl, type Block } from "../transcript/helpers.js";

export * from "../transcript/helpers.js";

/** A 2.1 `progress` line carrying one line of subagent `agentId`'s transcript. */
export function agentProgress(agentId: string, line: string): string {
  const message = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: "progress",
    uuid: `progress-${Math.random().toString(36).slice(2)}`,
    data: { message, normalizedMessages: [], type: "agent_progress", prompt: "", agentId },
    toolUseID: "agent_msg_x",
    parentToolUseID: "toolu_parent",
  });
}

/** A report in the short form. */
export function report(action: string, utility: string, breakdown: string, rationale = "because"): string {
  return `Action: ${action}\nUtility: ${utility}\nBreakdown: ${breakdown}\nRationale: "${rationale}"`;
}

/** U = 0.7 − 0.12 − 0.5·0.6 − 0 = 0.28 */
export const GOOD = "Gain=0.7 StepCost=0.12 Uncertainty=0.6 Redundancy=0.0";

/** One assistant message over several lines (one block per line), as Claude Code writes it. */
export function message(messageId: string, blocks: Block[], extra: { sidechain?: boolean; agentId?: string } = {}): string[] {
  return blocks.map((block) => assistant(messageId, [block], extra));
}

export function replayLines(lines: string[], options: ReplayOptions = {}) {
  return replayEvents(readAll(bufferSource(Buffer.from(jsonl(lines)))), options);
}
