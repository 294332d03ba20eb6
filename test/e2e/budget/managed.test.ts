/**
 * Budgets an organization sets (issue 36, SPEC §17), in the real client:
 * `pluginConfigs["utility@inline"].options` in the managed settings file
 * (/etc/claude-code/managed-settings.json, given to the run by an overlay in
 * its own mount namespace, test/e2e/support/managed-settings.ts) and the
 * user's own settings both set `max_tool_calls`; the smaller wins whichever
 * sets it. Claude Code hands the plugin the managed value over the user's
 * (docs/claude-code-facts.md), so the first case holds by Claude Code and
 * the plugin alike; the second, a user's tighter budget under a looser
 * organization's, holds by the plugin alone. `/utility status` names what is
 * the organization's.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { assertRunOk, homeWithOptions, runClaude, type RunClaudeResult } from "../support/claude.js";
import { text } from "../support/scripted-model.js";
import { managedSettingsUnavailable, withManagedSettings, type ManagedSettings } from "../support/managed-settings.js";
import { id, logOf, markerDir, touch } from "../gate/support.js";

const BLOCKED = "UserPromptExpansion operation blocked by hook:\n";
const unavailable = managedSettingsUnavailable();
if (unavailable) console.warn(`SKIPPED test/e2e/budget/managed.test.ts: ${unavailable}`);

const policy = (options: Record<string, unknown>) => ({ "managed-settings.json": { pluginConfigs: { "utility@inline": { options } } } });

/** Three ungated Bash calls with the organization's and the user's `option` (max_tool_calls unless named), then /utility status in the same session. */
function threeCalls(label: string, organization: number, user: number | undefined, option = "max_tool_calls") {
  const marks = markerDir();
  const ids = [1, 2, 3].map((n) => id(`${label}${n}`));
  const out = { ids, run: undefined as RunClaudeResult | undefined, status: undefined as RunClaudeResult | undefined };
  let managed: ManagedSettings;
  beforeAll(async () => {
    managed = withManagedSettings(policy({ [option]: organization }));
    out.run = await runClaude({
      prompt: "three steps",
      pluginDir: ROOT,
      home: homeWithOptions(user === undefined ? {} : { [option]: user }),
      allowedTools: ["Bash"],
      wrap: managed.wrap,
      timeoutMs: 120_000,
      script: [...ids.map((call, i) => [touch(join(marks, String(i)), call)]), [text("Done.")]],
    });
    out.status = await runClaude({
      prompt: "/utility status",
      pluginDir: ROOT,
      home: out.run.home,
      cwd: out.run.cwd,
      wrap: managed.wrap,
      extraArgs: ["--resume", out.run.sessionId!],
      whenExhausted: "error",
      script: [],
    });
  }, 180_000);
  afterAll(() => {
    out.status?.cleanup();
    out.run?.cleanup();
    managed?.cleanup();
  });
  const decisionOf = (n: number) => logOf(out.run!).find((r) => r.event === "PreToolUse" && r.toolUseId === ids[n]);
  return { out, decisionOf };
}

describe.skipIf(unavailable !== undefined)("the organization's max_tool_calls 2, the user's own 5", () => {
  const { out, decisionOf } = threeCalls("org", 2, 5);

  it("refuses the third call, which the user's own budget would allow, naming max_tool_calls 2", () => {
    expect(decisionOf(0)).toMatchObject({ decision: "observed" });
    expect(decisionOf(1)).toMatchObject({ decision: "observed" });
    const third = decisionOf(2);
    expect(third).toMatchObject({ decision: "refused", rule: "budget_spent" });
    expect(third!.reason).toContain("2 tool calls of 2 (your organization's max_tool_calls setting)");
  });

  it("/utility status says the budget is set by the organization", () => {
    const result = assertRunOk(out.status!);
    expect(result.result!.startsWith(BLOCKED)).toBe(true);
    expect(result.result).toContain("set by your organization (managed settings; yours cannot loosen them): max_tool_calls 2");
  });
});

describe.skipIf(unavailable !== undefined)("the organization's max_tool_calls 10, the user's own 2", () => {
  const { out, decisionOf } = threeCalls("own", 10, 2);

  it("refuses the third call: the user's tighter budget stands though Claude Code hands the plugin the organization's", () => {
    const third = decisionOf(2);
    expect(third).toMatchObject({ decision: "refused", rule: "budget_spent" });
    expect(third!.reason).toContain("2 tool calls of 2 (your max_tool_calls setting)");
  });

  it("/utility status does not call the user's own budget the organization's", () => {
    const result = assertRunOk(out.status!);
    expect(result.result).not.toContain("set by your organization");
  });
});

describe.skipIf(unavailable !== undefined)("the organization's session_max_tool_calls 2, none of the user's", () => {
  const { out, decisionOf } = threeCalls("ses", 2, undefined, "session_max_tool_calls");

  it("refuses the third call, naming the session budget as the organization's", () => {
    const third = decisionOf(2);
    expect(third).toMatchObject({ decision: "refused", rule: "budget_spent" });
    expect(third!.reason).toContain("2 tool calls of 2 (your organization's session_max_tool_calls setting)");
  });

  it("/utility status says the session budget is set by the organization", () => {
    expect(assertRunOk(out.status!).result).toContain(
      "set by your organization (managed settings; yours cannot loosen them): session_max_tool_calls 2",
    );
  });
});

if (unavailable !== undefined)
  describe("managed settings in the real client", () => {
    it.skip(`cannot run here: ${unavailable}`, () => {});
  });
