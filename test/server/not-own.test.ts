/**
 * The hook server answers only calls whose `hook_event_name` is its tool's
 * event (issue 31, hole 4). The plugin's hooks.json sends
 * `${hook_event_name}`, which Claude Code fills with the event that fired
 * (docs/claude-code-facts.md): a skill's or a repository's hook that copies
 * the template on another event says so, and one that leaves the field out
 * or writes another is not the plugin's. Such a call decides nothing and
 * changes nothing; the error log names it.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hookServer } from "../../src/server/serve.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "utility-not-own-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
function server() {
  const dataDir = join(scratch, `data-${++n}`);
  const sessionId = `not-own-${n}`;
  const common = {
    session_id: sessionId,
    transcript_path: join(scratch, `${sessionId}.jsonl`),
    cwd: scratch,
    prompt_id: "p1",
    permission_mode: "default",
    agent_id: "",
    agent_type: "",
  };
  const off = {
    ...common,
    expansion_type: "slash_command",
    command_name: "utility:utility",
    command_args: "off",
    command_source: "plugin",
  };
  return {
    hooks: hookServer({ PATH: process.env.PATH ?? "", HOME: scratch, UTILITY_DATA_DIR: dataDir }),
    off,
    submit: { ...common, prompt: "/utility on" },
    state: join(dataDir, "state", `${sessionId}.json`),
    errors: () =>
      readFileSync(join(dataDir, "errors.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).reason as string),
  };
}

describe("a hook call whose hook_event_name is not its tool's event", () => {
  it.each([
    ["a skill's PreToolUse hook that copied the template", "PreToolUse", '"PreToolUse"'],
    ["a hook that left the field out", undefined, '""'],
    ["a hook that wrote another event", "Stop", '"Stop"'],
  ])("%s: no decision, no state, the error log says what was found and expected", async (_name, named, found) => {
    const s = server();
    const answer = await s.hooks.callTool({
      name: "user_prompt_expansion",
      arguments: { ...s.off, ...(named === undefined ? {} : { hook_event_name: named }) },
      meta: undefined,
    });
    s.hooks.settle();
    expect(answer).toEqual({ content: [{ type: "text", text: "{}" }] });
    expect(existsSync(s.state)).toBe(false);
    expect(s.errors()).toEqual([
      `utility UserPromptExpansion hook: hook_event_name is ${found}, expected UserPromptExpansion: not the plugin's own hook; no decision, nothing changed`,
    ]);
  });

  it("the same call with the event's own name is answered (the plugin's hooks.json fills it so)", async () => {
    const s = server();
    await s.hooks.callTool({
      name: "user_prompt_submit",
      arguments: { ...s.submit, hook_event_name: "UserPromptSubmit" },
      meta: undefined,
    });
    s.hooks.settle();
    expect(JSON.parse(readFileSync(s.state, "utf8")).manualGate).toBe(true);
  });
});
