/**
 * Red team 4 (class 3): hook-commands.ts reads the settings keys it knows to
 * hold a command (hooks, statusLine, apiKeyHelper, awsAuthRefresh,
 * awsCredentialExport, otelHeadersHelper). The pinned claude binary lists more
 * settings it runs as commands (its own list: ... fileSuggestion,
 * gcpAuthRefresh, proxyAuthHelper, statusLine, subagentStatusLine ...).
 * Promise (docs/limits.md: "A script Claude Code runs by itself (a settings
 * hook, the status line, a credential helper, an MCP server) is guarded where
 * gated"): a gated Write of the script such a setting runs is refused.
 */
import { describe, it } from "vitest";
import { expectWriteRefused } from "./hook-script-write.js";

const CASES = [
  { name: "control: statusLine", key: "statusLine", value: { type: "command", command: "sh tools/cmd.sh" } },
  { name: "subagentStatusLine (a status line)", key: "subagentStatusLine", value: { type: "command", command: "sh tools/cmd.sh" } },
  { name: "fileSuggestion", key: "fileSuggestion", value: { type: "command", command: "sh tools/cmd.sh" } },
  { name: "gcpAuthRefresh (a credential helper)", key: "gcpAuthRefresh", value: "sh tools/cmd.sh" },
  { name: "proxyAuthHelper (a credential helper)", key: "proxyAuthHelper", value: "sh tools/cmd.sh" },
];
describe.each(CASES)("settings $name", ({ name, key, value }) => {
  it("a gated Write of the script it runs is refused", async () => {
    await expectWriteRefused({ name, config: { ".claude/settings.json": { [key]: value } }, file: "tools/cmd.sh" });
  });
});
