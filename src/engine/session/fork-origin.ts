import type { PromptKind } from "./prompt-kind.js";
import type { SessionDraft, Switch } from "./state.js";

/**
 * A session forked from another (`claude --resume <id> --fork-session`,
 * issue 31 hole 16): Claude Code gives it a new session id and copies the
 * earlier conversation's lines into its transcript (docs/claude-code-facts.md),
 * so `/utility on`, which gates the conversation, must go on gating it. The
 * state is keyed by the old id: the hooks find that session from the copied
 * lines and say whether the switch was on there. Pure.
 */

interface Out {
  prompts: Array<{ key: string; kind: PromptKind; switched?: Switch }>;
}

export function sessionForked(session: SessionDraft): void {
  if (session.forkedFrom === undefined) session.forkedFrom = "";
}

/** The origin found: `/utility on` in force there is in force here, logged as a switch (the log brings it back, SPEC §10). */
export function forkOrigin(session: SessionDraft, from: string, gated: boolean, out: Out): void {
  if (session.forkedFrom !== "") return;
  session.forkedFrom = from === "" ? "-" : from;
  if (!gated || session.manualGate) return;
  session.manualGate = true;
  out.prompts.push({ key: "", kind: "typed", switched: "on" });
}
