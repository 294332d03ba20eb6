import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serverEnv } from "../../src/server/env.js";

const root = mkdtempSync(join(tmpdir(), "utility-server-env-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, ".claude-plugin"));
writeFileSync(
  join(root, ".claude-plugin", "plugin.json"),
  JSON.stringify({ name: "utility", userConfig: { step_cost: { default: "reported" }, token_budget: {} } }),
);

describe("serverEnv: the handlers see the environment a command hook would", () => {
  it("takes Claude Code's pid from the parent when Claude Code does not pass it", () => {
    expect(serverEnv({}, 4242).CLAUDE_PID).toBe("4242");
    expect(serverEnv({ CLAUDE_PID: "7" }, 4242).CLAUDE_PID).toBe("7");
  });

  it("drops an option Claude Code filled with nothing or with the manifest's default (a command hook sees it absent)", () => {
    const env = serverEnv(
      { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "", CLAUDE_PLUGIN_OPTION_STEP_COST: "reported", HOME: "/h" },
      1,
    );
    expect(env).not.toHaveProperty("CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET");
    expect(env).not.toHaveProperty("CLAUDE_PLUGIN_OPTION_STEP_COST");
    expect(env.HOME).toBe("/h");
  });

  it("keeps an option the user set", () => {
    const env = serverEnv(
      { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1234", CLAUDE_PLUGIN_OPTION_STEP_COST: "computed" },
      1,
    );
    expect(env).toMatchObject({ CLAUDE_PLUGIN_OPTION_TOKEN_BUDGET: "1234", CLAUDE_PLUGIN_OPTION_STEP_COST: "computed" });
  });
});
