/**
 * SessionStart, a command hook: does the hook server run for this Claude
 * Code process? Every other hook is answered by the server, and PreToolUse
 * blocks every tool call while it cannot be reached (`onFailure: "block"`:
 * a gated scope must never run a call undecided, and no hook can tell a
 * gated scope from an ungated one without the server). A killed server is
 * started again by Claude Code on the next hook call, but one Claude Code
 * keeps off (`--strict-mcp-config`, an organization's MCP policy) never
 * starts, and Claude Code's own refusal names no cause. So this hook waits
 * for the server's marker a little (both start together), and when none comes
 * tells the user, and the model, why every call will be refused and exactly
 * how to go on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { HookContext } from "./context.js";
import type { SessionStartInput } from "./input.js";
import type { HookResult } from "./records.js";
import { OWN_MCP_SERVER } from "../engine/tools.js";
import { readMarker } from "../state/server-marker.js";
import { pluginRefOf } from "../claude/plugin-id.js";

/** How long to wait for a server that is starting: seen to start within 0.1 s of this hook on a quiet machine, 2 s on a loaded one. */
export const SERVER_START_WAIT_MS = 3000;
const POLL_MS = 25;

export const SERVER_ID = `plugin:utility:${OWN_MCP_SERVER}`;

export type KeptOff = "strict" | "policy" | "unknown";

export interface SentinelProbe {
  /** Claude Code's command line, when the system shows it (Linux /proc). */
  commandLine(claudePid: string): string[] | undefined;
  /** The organization's managed settings files' texts. */
  managedSettings(): string[];
  sleep(ms: number): Promise<void>;
}

export async function sessionStart(input: SessionStartInput, ctx: HookContext, probe: SentinelProbe = systemProbe): Promise<HookResult> {
  const claudePid = ctx.env.CLAUDE_PID;
  if (!claudePid || !/^\d+$/.test(claudePid)) return {};
  const strict = probe.commandLine(claudePid)?.includes("--strict-mcp-config") === true;
  // With --strict-mcp-config the server will not come: no need to wait for it.
  const waitMs = strict ? 0 : SERVER_START_WAIT_MS;
  const started = ctx.now();
  for (;;) {
    if (readMarker(ctx.dataDir, claudePid)) return {};
    if (ctx.now() - started >= waitMs) break;
    await probe.sleep(POLL_MS);
  }
  const cause: KeptOff = strict ? "strict" : probe.managedSettings().some(listsMcpServers) ? "policy" : "unknown";
  const message = keptOffMessage(cause, ctx.env.CLAUDE_PLUGIN_ROOT, pluginRefOf(ctx.env, ctx.dataDir).id);
  return { output: { systemMessage: message, hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: message } } };
}

function listsMcpServers(text: string): boolean {
  try {
    const settings = JSON.parse(text) as Record<string, unknown>;
    return ["deniedMcpServers", "allowedMcpServers", "allowManagedMcpServersOnly"].some((key) => settings[key] !== undefined);
  } catch {
    return false;
  }
}

/** What the user is told: why every tool call will be refused, and each way to go on. */
export function keptOffMessage(cause: KeptOff, pluginRoot: string | undefined, pluginId = "utility@<marketplace>"): string {
  const why = {
    strict: "this session runs with --strict-mcp-config, which keeps every MCP server not named in --mcp-config off",
    policy: "your organization's managed settings (deniedMcpServers, allowedMcpServers) keep it off",
    unknown: `it has not started ${SERVER_START_WAIT_MS / 1000} s after the session did (/mcp shows its state; if it shows connected, this came too early and all is well)`,
  }[cause];
  const command = pluginRoot ? `["node", "${join(pluginRoot, "dist", "server.js")}"]` : `["node", "<plugin folder>/dist/server.js"]`;
  const fix = {
    strict: "start Claude Code without --strict-mcp-config",
    policy: `ask your administrator to allow it (an allowedMcpServers entry {"serverCommand": ${command}})`,
    unknown: "fix what /mcp shows, or start Claude Code again",
  }[cause];
  return (
    `utility: the plugin's hook server (${SERVER_ID}) is not running: ${why}. ` +
    `Until it runs, Claude Code refuses every tool call, since the plugin cannot check one. ` +
    `To go on: ${fix}; or turn the plugin off (/plugin, or: claude plugin disable ${pluginId}).`
  );
}

/** Where Claude Code reads managed settings (no override in 2.1.328's build). */
function managedSettingsFolder(): string {
  switch (process.platform) {
    case "darwin":
      return "/Library/Application Support/ClaudeCode";
    case "win32":
      return "C:\\Program Files\\ClaudeCode";
    default:
      return "/etc/claude-code";
  }
}

const systemProbe: SentinelProbe = {
  commandLine(claudePid) {
    try {
      return readFileSync(`/proc/${claudePid}/cmdline`, "utf8").split("\0");
    } catch {
      return undefined;
    }
  },
  managedSettings() {
    const folder = managedSettingsFolder();
    const dropIns = join(folder, "managed-settings.d");
    const files = [join(folder, "managed-settings.json")];
    try {
      if (existsSync(dropIns))
        files.push(
          ...readdirSync(dropIns)
            .filter((f) => f.endsWith(".json"))
            .map((f) => join(dropIns, f)),
        );
    } catch {
      // unreadable drop-in folder: the main file still speaks
    }
    return files.flatMap((file) => {
      try {
        return [readFileSync(file, "utf8")];
      } catch {
        return [];
      }
    });
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
