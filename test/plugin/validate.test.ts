/**
 * `claude plugin validate --strict` on the plugin and its marketplace, with
 * the plugin directory's own checks (README, LICENSE, author, icon): no
 * error, no warning, nothing the directory would refuse.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLUGIN_ROOT, ROOT } from "../support/paths.js";

const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");
const home = mkdtempSync(join(tmpdir(), "utility-validate-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Validation {
  success: boolean;
  manifest: { errors: unknown[]; warnings: unknown[] };
  provides: {
    hooks: Array<{ event: string; type: string; command?: string; args?: string[]; server?: string; tool?: string }>;
    mcpServers: Array<{ name: string; type: string; target: string; args: string[] }>;
    skills: string[];
    commands: string[];
    bin?: string[];
    agents: string[];
  };
  directory: { findings: unknown[] };
}

/** Runs the validator; a non-zero exit throws (strict fails on any warning). */
function validate(target: string, profile: string[] = ["--profile", "directory"]): Validation {
  const out = execFileSync(CLAUDE, ["plugin", "validate", "--strict", "--json", ...profile, target], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
  });
  return JSON.parse(out) as Validation;
}

describe("claude plugin validate --strict", () => {
  it("passes the plugin manifest with nothing to report", () => {
    const v = validate("plugin/.claude-plugin/plugin.json");
    expect(v.success).toBe(true);
    expect(v.manifest.errors).toEqual([]);
    expect(v.manifest.warnings).toEqual([]);
    expect(v.directory.findings).toEqual([]);
  });

  it("sees every hook, skill, command and agent", () => {
    const v = validate("plugin/.claude-plugin/plugin.json");
    const hooks = JSON.parse(readFileSync(join(PLUGIN_ROOT, "hooks", "hooks.json"), "utf8")).hooks as Record<string, unknown>;
    expect(v.provides.hooks.map((h) => h.event).sort()).toEqual(Object.keys(hooks).sort());
    // Every hook but SessionStart and SessionEnd is answered by the plugin's own server; SessionStart checks that it
    // runs, and SessionEnd (once, as the session and its server end) reads the session's last lines.
    for (const hook of v.provides.hooks) {
      if (hook.type === "mcp_tool") expect(hook.server).toBe("plugin:utility:hooks");
      else {
        expect(["SessionStart", "SessionEnd"]).toContain(hook.event);
        expect(hook).toMatchObject({ type: "command", command: "node" });
        expect(hook.args?.[0]).toMatch(/^\$\{CLAUDE_PLUGIN_ROOT\}\/dist\/hooks\/[a-z-]+\.js$/);
      }
    }
    expect(v.provides.mcpServers).toEqual([
      { name: "hooks", type: "stdio", target: "node", args: ["${CLAUDE_PLUGIN_ROOT}/dist/server.js"] },
    ]);
    // `/utility` is a skill (Claude Code resolves a plugin skill by its bare name, not a command), named apart from the scoring skill.
    expect(v.provides.skills.sort()).toEqual(["utility:utility", "utility:utility-scoring"]);
    expect(v.provides.commands ?? []).toEqual([]);
    expect(v.provides.bin).toEqual(["utility"]);
    expect(v.provides.agents).toEqual(["utility:utility-scorer"]);
  });

  it("passes the marketplace that lists the plugin (the directory profile is for the plugin folder, checked above)", () => {
    const v = validate(".claude-plugin/marketplace.json", []);
    expect(v.success).toBe(true);
    expect(v.manifest.errors).toEqual([]);
    expect(v.manifest.warnings).toEqual([]);
  });
});

describe("the plugin folder's own README and LICENSE", () => {
  it("ships the repository's licence unchanged", () => {
    expect(readFileSync(join(ROOT, "plugin", "LICENSE"), "utf8")).toBe(readFileSync(join(ROOT, "LICENSE"), "utf8"));
  });
});
