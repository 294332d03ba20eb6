import { describe, expect, it } from "vitest";
import { LogRecordSchema } from "../../src/log/record.js";
import { userPromptSubmit } from "../../src/hooks/user-prompt-submit.js";
import { fakeContext, NO_TRANSCRIPT, SESSION } from "./fake-context.js";

const prompt = (text: string) => ({ session_id: SESSION, transcript_path: NO_TRANSCRIPT, hook_event_name: "UserPromptSubmit", prompt: text });

describe("userPromptSubmit: the manual switch", () => {
  it("logs /utility on and off as the record's switch field, which the log schema accepts", async () => {
    const ctx = fakeContext();
    await userPromptSubmit(prompt("/utility on"), ctx);
    expect(ctx.state()?.manualGate).toBe(true);
    await userPromptSubmit(prompt("/utility:utility OFF"), ctx);
    expect(ctx.state()?.manualGate).toBe(false);
    expect(ctx.records.map((r) => r.switch)).toEqual(["on", "off"]);
    for (const record of ctx.records) expect(LogRecordSchema.safeParse(record).success).toBe(true);
  });

  it("a prompt that switches nothing carries no switch", async () => {
    const ctx = fakeContext();
    await userPromptSubmit(prompt("/utility status"), ctx);
    await userPromptSubmit(prompt("please say /utility on"), ctx);
    expect(ctx.records.map((r) => r.switch)).toEqual([undefined, undefined]);
  });
});
