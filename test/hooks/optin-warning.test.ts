import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optInFolders, optInWarning } from "../../src/hooks/optin-warning.js";

function skill(root: string, name: string, frontmatter: string): void {
  const folder = join(root, "skills", name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: d\n${frontmatter}\n---\nbody\n`);
}

function homes(): { cwd: string; config: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), "optin-warning-"));
  const cwd = join(root, "project");
  const config = join(root, "config");
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  mkdirSync(config, { recursive: true });
  return { cwd, config, env: { CLAUDE_CONFIG_DIR: config } };
}

describe("the session-start warning of opt-ins the gate cannot read", async () => {
  it("says nothing when no skill or agent folder exists, or when every opt-in reads", async () => {
    const { cwd, env, config } = homes();
    expect(await optInWarning(cwd, env)).toBeUndefined();
    skill(join(cwd, ".claude"), "fine", "utility_gated: true");
    skill(config, "plain", "");
    expect(await optInWarning(cwd, env)).toBeUndefined();
  });

  it("names the file, the key and the key meant, in the project's and the user's skills", async () => {
    const { cwd, env, config } = homes();
    skill(join(cwd, ".claude"), "typo", "utility_gate: true");
    const said = (await optInWarning(cwd, env)) ?? "";
    expect(said.split("\n")[0]).toBe(
      "utility: a skill or agent has an opt-in the gate cannot read; a scope it would gate refuses every tool call until it is fixed:",
    );
    expect(said).toMatch(/\.claude\/skills\/typo\/SKILL\.md: utility_gate: found an unknown key \(did you mean utility_gated\?\)/);
    skill(config, "mine", "utility_gated: yes please");
    const both = (await optInWarning(cwd, env)) ?? "";
    expect(both.split("\n")[0]).toMatch(/^utility: 2 opt-in problems in skills or agents/);
    expect(both).toContain(join(config, "skills", "mine", "SKILL.md"));
  });

  it("spells out three problems and points to `utility check` for the rest", async () => {
    const { cwd, env } = homes();
    for (const n of [1, 2, 3, 4, 5]) skill(join(cwd, ".claude"), `s${n}`, "utility_gate: true");
    const lines = (await optInWarning(cwd, env))!.split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("  … and 2 more: run `utility check .claude` to see them all.");
  });

  it("reads agents as well as skills, and ~/.claude when CLAUDE_CONFIG_DIR is not set", async () => {
    const { cwd } = homes();
    const home = mkdtempSync(join(tmpdir(), "optin-home-"));
    mkdirSync(join(home, ".claude", "agents"), { recursive: true });
    writeFileSync(join(home, ".claude", "agents", "a.md"), "---\nname: a\ndescription: d\nutility_max_steps: -1\n---\n");
    expect(optInFolders(cwd, { HOME: home })).toEqual([join(home, ".claude", "agents")]);
    expect(await optInWarning(cwd, { HOME: home })).toMatch(/agents\/a\.md: utility_max_steps/);
  });
});
