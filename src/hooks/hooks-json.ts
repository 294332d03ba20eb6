/**
 * plugin/hooks/hooks.json, rendered from the one table of hook events
 * (src/hooks/events.ts). `npm run build` writes it; a test fails when the
 * committed file differs, so it is never edited by hand.
 */
import { OWN_MCP_SERVER } from "../engine/tools.js";
import { HOOK_EVENT_NAMES, HOOK_EVENTS, type CommandWiring, type ServedWiring } from "./events.js";

export const HOOKS_JSON_DESCRIPTION =
  "utility: check action reports, refuse calls that contradict them in gated skills, catch exact repeats, log one record per step. Answered by the plugin's own MCP server (plugin:utility:hooks), kept warm for the session. Generated from src/hooks/events.ts by npm run build: do not edit.";

/** The `input` object of a served event's hook: every field as a `${field}` template. */
export function inputTemplate(fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, `\${${f}}`]));
}

function hookOf(wiring: CommandWiring | ServedWiring): Record<string, unknown> {
  if (wiring.runs === "command")
    return { type: "command", command: "node", args: [`\${CLAUDE_PLUGIN_ROOT}/dist/hooks/${wiring.entry}.js`], timeout: wiring.timeout };
  return {
    type: "mcp_tool",
    server: `plugin:utility:${OWN_MCP_SERVER}`,
    tool: wiring.tool,
    input: inputTemplate(wiring.fields),
    timeout: wiring.timeout,
    onFailure: wiring.onFailure,
  };
}

export function renderHooksJson(): { description: string; hooks: Record<string, unknown[]> } {
  const hooks: Record<string, unknown[]> = {};
  for (const event of HOOK_EVENT_NAMES) {
    const wiring: CommandWiring | ServedWiring = HOOK_EVENTS[event].wiring;
    const matcher = wiring.runs === "served" && wiring.matcher !== undefined ? { matcher: wiring.matcher } : {};
    hooks[event] = [{ ...matcher, hooks: [hookOf(wiring)] }];
  }
  return { description: HOOKS_JSON_DESCRIPTION, hooks };
}

/** The file's text as the build writes it (the repository's formatter keeps JSON at two spaces). */
export function hooksJsonText(): string {
  return `${JSON.stringify(renderHooksJson(), null, 2)}\n`;
}
