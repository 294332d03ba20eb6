/**
 * `/utility …` typed and answered by the plugin with no model turn
 * (UserPromptExpansion, SPEC §9): its switch applies at once, `off` included,
 * over older switches only, and its vouch is done (no line will come).
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
const typed = (key: string, sw?: "on" | "off"): SessionEvent => ({ kind: "command_typed", key, ...(sw ? { switch: sw } : {}) });
const fold = (events: SessionEvent[], from: SessionState = newSession("s")) => reduceAll(from, events);

describe("command_typed", () => {
  it("switches the gate off at once, with no line, and says so", () => {
    const on = fold([vouch("k1", "on"), typed("k1", "on")]).session;
    expect(on.manualGate).toBe(true);
    const off = fold([vouch("k2", "off"), typed("k2", "off")], on);
    expect(off.session.manualGate).toBe(false);
    expect(off.switchedNow).toBe("off");
    expect(off.session.switchSeq).toBe(2);
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

  it("with no vouch (its UserPromptSubmit was not seen) takes the next sequence number and applies", () => {
    const start = fold([vouch("k1", "on")]).session;
    const r = fold([typed("unseen", "off")], start);
    expect(r.session.manualGate).toBe(false);
    expect(r.session.promptSeq).toBe(2);
    expect(r.session.switchSeq).toBe(2);
    expect(r.session.prompts).toEqual({ k1: { own: true, seq: 1, switch: "on" } });
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
