// What the machine needs to know of a prompt (src/ingest/prompts.ts).
import { describe, expect, it } from "vitest";
import { promptKey, readPrompt, typedText } from "../../src/ingest/prompts.js";

describe("promptKey", () => {
  it("a digest of the id, never the id itself; the empty key for none", () => {
    const key = promptKey("eba2969c-1234");
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain("eba2969c");
    expect(promptKey("eba2969c-1234")).toBe(key);
    expect(promptKey("other")).not.toBe(key);
    expect(promptKey("")).toBe("");
    expect(promptKey(undefined)).toBe("");
    expect(promptKey(null)).toBe("");
  });
});

describe("readPrompt", () => {
  it("the plugin's switch, as the user types it", () => {
    expect(readPrompt("/utility on")).toEqual({ own: true, slash: true, switch: "on" });
    expect(readPrompt("  /utility:utility OFF")).toEqual({ own: true, slash: true, switch: "off" });
    expect(readPrompt("/utility on please")).toMatchObject({ switch: "on" });
    expect(readPrompt("/utility   off")).toMatchObject({ switch: "off" }); // spaces as typed
    expect(readPrompt("/utility onward")).toEqual({ own: true, slash: true });
  });

  it("the plugin's other commands are its own; any slash command is a slash command", () => {
    expect(readPrompt("/utility status")).toEqual({ own: true, slash: true });
    expect(readPrompt("/utility")).toEqual({ own: true, slash: true });
    expect(readPrompt("/utilityx")).toEqual({ own: false, slash: true });
    expect(readPrompt("/review")).toEqual({ own: false, slash: true });
    expect(readPrompt("please /utility on")).toEqual({ own: false, slash: false });
    expect(readPrompt("fix it")).toEqual({ own: false, slash: false });
    expect(readPrompt(undefined)).toEqual({ own: false, slash: false });
  });
});

describe("typedText", () => {
  it("a typed slash command's line, back to what was typed", () => {
    const line = "<command-message>utility</command-message>\n<command-name>/utility</command-name>\n<command-args>on</command-args>";
    expect(typedText(line)).toBe("/utility on");
    expect(typedText("<command-name>/utility:utility</command-name><command-args> status </command-args>")).toBe("/utility:utility status");
    expect(typedText("<command-name>/init</command-name>")).toBe("/init");
    expect(typedText("<command-name>/x</command-name><command-args></command-args>")).toBe("/x");
  });

  it("any other line as it is", () => {
    expect(typedText("fix the bug")).toBe("fix the bug");
    expect(typedText("<command-name>no slash</command-name>")).toBe("<command-name>no slash</command-name>");
  });
});
