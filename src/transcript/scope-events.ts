// Transcript events → the scope reducer's events (src/engine/session/events.ts). Pure.
// The hooks feed what this makes of a transcript's tail, replay what it makes of a whole file.
import { launchedJobId, notificationEnd, resultShowsFinished } from "../engine/background.js";
import type { ScopeEvent } from "../engine/session/scope-events.js";
import type { Sha256Hex } from "../engine/redundancy.js";
import { sha256Hex } from "../engine/sha256.js";
import type { TranscriptEvent } from "./line-events.js";

/** Epoch ms of a line's timestamp, when it has a valid one. */
export function lineTime(event: TranscriptEvent): number | undefined {
  if (event.timestamp === undefined) return undefined;
  const ms = Date.parse(event.timestamp);
  return Number.isFinite(ms) ? ms : undefined;
}

/** What a line tells the reducer by itself: results, compactions, usage. Prompts and calls are decided by the caller. */
export function observedEvents(event: TranscriptEvent, sha256: Sha256Hex = sha256Hex): ScopeEvent[] {
  switch (event.kind) {
    case "tool_result":
      return resultEvents(event, sha256);
    case "compact":
      return [{ kind: "compact" }];
    case "user_text": {
      // Only a line whose fields mark it a notification: a typed prompt quoting one ends nothing.
      const end = event.lineKind === "notification" ? notificationEnd(event.text) : undefined;
      return end ? [{ kind: "background_ended", ...end }] : [];
    }
    case "assistant":
      if (!event.usage) return [];
      return [
        {
          kind: "usage",
          messageId: event.messageId,
          model: event.model ?? "unknown",
          tokens: event.usage,
          toolUseIds: event.blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])),
        },
      ];
    default:
      return [];
  }
}

function resultEvents(event: Extract<TranscriptEvent, { kind: "tool_result" }>, sha256: Sha256Hex): ScopeEvent[] {
  if (event.denied) return [{ kind: "denied", toolUseId: event.toolUseId }];
  const endedAt = lineTime(event);
  const jobId = launchedJobId(event.text);
  const finished = resultShowsFinished(event.text);
  const digest = resultDigest(event, sha256);
  return [
    {
      kind: "result",
      toolUseId: event.toolUseId,
      failed: event.isError,
      bytes: event.bytes,
      ...(endedAt !== undefined ? { endedAt } : {}),
      ...(jobId !== undefined ? { jobId } : {}),
      ...(finished ? { finished } : {}),
      ...(digest !== undefined ? { digest } : {}),
    },
  ];
}

/**
 * The digest of what a call returned (SPEC §13 keeps only this): SHA-256 of
 * its text, first 32 hex digits, as input digests are. A result that held
 * more than text (an image) has none: two different images have the same
 * (empty) text, and no identical outcome may rest on that.
 */
export function resultDigest(
  event: Pick<Extract<TranscriptEvent, { kind: "tool_result" }>, "text" | "notOnlyText">,
  sha256: Sha256Hex = sha256Hex,
): string | undefined {
  return event.notOnlyText ? undefined : sha256(event.text).slice(0, 32);
}
