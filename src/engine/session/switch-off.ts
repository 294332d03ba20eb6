import type { SessionEvent } from "./events.js";
import type { PromptKind } from "./prompt-kind.js";
import type { SessionDraft, Switch, VouchedPrompt } from "./state.js";

/**
 * `/utility off` through UserPromptExpansion (SPEC §9, issue 31). The
 * plugin's server answers any `mcp_tool` hook routed to it: a skill's
 * frontmatter or a repository's settings may register one, on any event,
 * with any input, and Claude Code sends it exactly as it sends the plugin's
 * own (docs/claude-code-facts.md). So `off` needs what such a call cannot
 * make by itself:
 *
 * - the same prompt vouched for by UserPromptSubmit as `/utility off`, and
 *   by no other text (a second vouch of one prompt id is contested);
 * - then Claude Code's own transcript line for the blocked command, the first
 *   line of its kind after the answer (`off_evidence`). Claude Code writes it
 *   only when a UserPromptExpansion hook blocks a command the user typed; a
 *   call riding another event leaves a tool result, a prompt or nothing there.
 *
 * Until then the gate stays on; `on` only tightens and needs neither. Pure.
 */

/** Why an `off` was not taken: the hook words it for the user. */
export type OffRefusal = "unvouched" | "contested" | "not_off" | "no_transcript";

export interface SwitchOut {
  switchedNow?: Switch;
  offRefused?: OffRefusal;
  prompts: Array<{ key: string; kind: PromptKind; switched?: Switch }>;
}

type Typed = Extract<SessionEvent, { kind: "command_typed" }>;
type Vouched = Extract<SessionEvent, { kind: "prompt_vouched" }>;

/** A prompt's vouch; one prompt id vouched for again with another text is contested: two hook calls disagree on what was typed. */
export function vouchOf(before: VouchedPrompt | undefined, event: Vouched, seq: number): VouchedPrompt {
  const differs = before !== undefined && (before.contested === true || before.own !== event.own || before.switch !== event.switch);
  if (differs) return { own: before.own && event.own, seq, contested: true };
  return { own: event.own, seq, ...(event.switch ? { switch: event.switch } : {}) };
}

export function commandTyped(session: SessionDraft, event: Typed, out: SwitchOut): void {
  const prompts = session.prompts ?? {};
  const vouch = Object.hasOwn(prompts, event.key) ? prompts[event.key] : undefined;
  delete prompts[event.key];
  if (!event.switch) return;
  if (event.switch === "off") return pendOff(session, event, vouch, out);
  const seq = vouch?.seq ?? (session.promptSeq = (session.promptSeq ?? 0) + 1);
  // `on` applied at its vouch already, or an older prompt than the switch in force: nothing to apply.
  if (seq < (session.switchSeq ?? 0) || (seq === session.switchSeq && session.manualGate)) return;
  session.manualGate = true;
  session.switchSeq = seq;
  delete session.pendingOff;
  out.switchedNow = "on";
}

function pendOff(session: SessionDraft, event: Typed, vouch: VouchedPrompt | undefined, out: SwitchOut): void {
  const seq = vouch?.seq ?? (session.promptSeq = (session.promptSeq ?? 0) + 1);
  if (seq < (session.switchSeq ?? 0)) return;
  if (!session.manualGate) {
    // Nothing to loosen: the state says off already.
    session.switchSeq = seq;
    out.switchedNow = "off";
    return;
  }
  const refusal = offRefusal(vouch, event);
  if (refusal) out.offRefused = refusal;
  else
    session.pendingOff = {
      key: event.key,
      seq,
      after: event.after!,
      ...(event.transcriptId ? { transcriptId: event.transcriptId } : {}),
      ...(event.at !== undefined ? { at: event.at } : {}),
    };
}

function offRefusal(vouch: VouchedPrompt | undefined, event: Typed): OffRefusal | undefined {
  if (!vouch) return "unvouched";
  if (vouch.contested) return "contested";
  if (vouch.switch !== "off") return "not_off";
  return event.after === undefined ? "no_transcript" : undefined;
}

/** Claude Code's line shows the `off` (or shows that no typed command made it). */
export function offEvidence(session: SessionDraft, shown: boolean, out: SwitchOut): void {
  const pending = session.pendingOff;
  if (!pending) return;
  delete session.pendingOff;
  if (!shown || pending.seq < (session.switchSeq ?? 0)) return;
  session.manualGate = false;
  session.switchSeq = pending.seq;
  out.switchedNow = "off";
  out.prompts.push({ key: pending.key, kind: "typed", switched: "off" });
}
