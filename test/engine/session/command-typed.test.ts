/**
 * `/utility …` typed and answered by the plugin with no model turn
 * (UserPromptExpansion, SPEC §9): `on` applies at once, over older switches
 * only, and its vouch is done (no line will come). `off` needs its prompt's
 * own vouch saying `/utility off`, and is in force once Claude Code's line of
 * the answer is seen (`off_evidence`, issue 31: any hook may call the server).
 */
import { describe, expect, it } from "vitest";
import { reduceAll } from "../../../src/engine/session/reduce.js";
import type { SessionEvent } from "../../../src/engine/session/events.js";
import { newSession, type SessionState } from "../../../src/engine/session/state.js";

const vouch = (key: string, sw?: "on" | "off"): SessionEvent => ({
  kind: "prompt_vouched",
  key,
  own: true,
  slash: true,
  ...(sw ? { switch: sw } : {}),
});
const typed = (key: string, sw?: "on" | "off", after: number | null = 100): SessionEvent => ({
  kind: "command_typed",
  key,
  ...(sw ? { switch: sw } : {}),
  ...(sw === "off" && after !== null ? { after, transcriptId: "1:2" } : {}),
});
const shown: SessionEvent = { kind: "off_evidence", shown: true };
const unshown: SessionEvent = { kind: "off_evidence", shown: false };
const fold = (events: SessionEvent[], from: SessionState = newSession("s")) => reduceAll(from, events);

describe("command_typed", () => {
  it("an off is pending until Claude Code's line of the answer is seen; then it is in force, and says so", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    expect(on.manualGate).toBe(true);
    const pending = fold([vouch("k2", "off"), typed("k2", "off")], on);
    expect(pending.session.manualGate).toBe(true);
    expect(pending.switchedNow).toBeUndefined();
    expect(pending.offRefused).toBeUndefined();
    expect(pending.session.pendingOff).toEqual({ key: "k2", seq: 2, after: 100, transcriptId: "1:2" });
    const off = fold([shown], pending.session);
    expect(off.session.manualGate).toBe(false);
    expect(off.switchedNow).toBe("off");
    expect(off.session.switchSeq).toBe(2);
    expect(off.session.pendingOff).toBeUndefined();
    // The hooks that read the line log the switch with the prompt outcomes.
    expect(off.prompts).toEqual([{ key: "k2", kind: "typed", switched: "off" }]);
  });

  it("an off whose answer is not what the transcript shows next stays off the gate: the gate stays on", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    const r = fold([vouch("k2", "off"), typed("k2", "off"), unshown, shown], on);
    expect(r.session.manualGate).toBe(true);
    expect(r.switchedNow).toBeUndefined();
    expect(r.session.pendingOff).toBeUndefined();
  });

  it.each([
    ["no UserPromptSubmit vouched for the prompt", [typed("k2", "off")], "unvouched"],
    ["its UserPromptSubmit was of another prompt", [vouch("k2"), typed("k2", "off")], "not_off"],
    [
      "its prompt id was vouched twice with different texts",
      [vouch("k2", "off"), { ...vouch("k2"), own: false }, typed("k2", "off")],
      "contested",
    ],
    ["the same, the other way round", [{ ...vouch("k2"), own: false }, vouch("k2", "off"), typed("k2", "off")], "contested"],
    ["the hook named no transcript of the session's own", [vouch("k2", "off"), typed("k2", "off", null)], "no_transcript"],
  ] as const)("an off is not taken when %s", (_name, events, why) => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    const r = fold([...events], on);
    expect(r.offRefused).toBe(why);
    expect(r.session.pendingOff).toBeUndefined();
    expect(fold([shown], r.session).session.manualGate).toBe(true);
  });

  it("a prompt vouched twice alike is not contested (the log's pending switch vouched again)", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    const r = fold([vouch("k2", "off"), vouch("k2", "off"), typed("k2", "off"), shown], on);
    expect(r.session.manualGate).toBe(false);
  });

  it("an on after a pending off drops it: the line seen later switches nothing", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    const r = fold([vouch("k2", "off"), typed("k2", "off"), vouch("k3", "on"), shown], on);
    expect(r.session.manualGate).toBe(true);
    expect(r.session.pendingOff).toBeUndefined();
  });

  it("an on its UserPromptSubmit already applied is not applied twice", () => {
    const vouched = fold([vouch("k1", "on")]).session;
    const r = fold([typed("k1", "on")], vouched);
    expect(r.session.manualGate).toBe(true);
    expect(r.switchedNow).toBeUndefined();
    expect(r.session.switchSeq).toBe(1);
  });

  it("an on whose vouch the gate has not applied is applied (the state was lost in between)", () => {
    const lost = { ...fold([vouch("k1", "on")]).session, manualGate: false };
    const r = fold([typed("k1", "on")], lost);
    expect(r.session.manualGate).toBe(true);
    expect(r.switchedNow).toBe("on");
  });

  it("ends the vouch: a line with its key later is not a typed prompt", () => {
    const r = fold([vouch("k1"), typed("k1"), { kind: "prompt_line", key: "k1", lineKind: "typed" }]);
    expect(r.session.prompts).toEqual({});
    expect(r.prompts).toEqual([{ key: "k1", kind: "unvouched" }]);
    expect(r.session.main.task).toBe(1); // newSession's first task: nothing started another
  });

  it("a command with no switch changes no switch and leaves other vouches alone", () => {
    const r = fold([vouch("k0", "off"), vouch("k1"), typed("k1")]);
    expect(r.switchedNow).toBeUndefined();
    expect(r.session.manualGate).toBe(false);
    expect(Object.keys(r.session.prompts ?? {})).toEqual(["k0"]);
  });

  it("does not undo a newer switch: an older command's off loses to a later on", () => {
    const r = fold([typed("old", "off")], fold([vouch("old", "off"), vouch("new", "on")]).session);
    expect(r.session.manualGate).toBe(true);
    expect(r.switchedNow).toBeUndefined();
    expect(r.session.switchSeq).toBe(2);
  });

  it("with no vouch (its UserPromptSubmit was not seen) takes the next sequence number, and an off is not taken", () => {
    const start = fold([vouch("k1", "on")]).session;
    const r = fold([typed("unseen", "off")], start);
    expect(r.session.manualGate).toBe(true);
    expect(r.offRefused).toBe("unvouched");
    expect(r.session.promptSeq).toBe(2);
    expect(r.session.prompts).toEqual({ k1: { own: true, seq: 1, switch: "on" } });
  });

  it("an off when the gate is off loosens nothing: taken at once, vouched or not", () => {
    const r = fold([typed("unseen", "off")]);
    expect(r.switchedNow).toBe("off");
    expect(r.offRefused).toBeUndefined();
    expect(r.session.switchSeq).toBe(1);
  });

  it("leaves the given state unchanged", () => {
    const start = fold([vouch("k1", "off")]).session;
    const before = JSON.stringify(start);
    fold([typed("k1", "off")], start);
    expect(JSON.stringify(start)).toBe(before);
  });
});

describe("a command with no switch after a switch", () => {
  it("leaves the gate on, vouched or not", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    for (const events of [[typed("status")], [vouch("k2"), typed("k2")]]) {
      const r = fold(events, on);
      expect(r.session.manualGate).toBe(true);
      expect(r.switchedNow).toBeUndefined();
      expect(r.session.switchSeq).toBe(1);
    }
  });
});

describe("a newer command repeating the switch in force", () => {
  it("applies it again and says so: it is the newest switch now", () => {
    const off = fold([vouch("k1", "off"), typed("k1", "off")]).session;
    expect(off.switchSeq).toBe(1);
    const again = fold([vouch("k2", "off"), typed("k2", "off")], off);
    expect(again.switchedNow).toBe("off");
    expect(again.session.switchSeq).toBe(2);
    expect(again.session.manualGate).toBe(false);
  });
});
