import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";
import { tempDir } from "../transcript/helpers.js";

const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");
const SESSION = "3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c";
const dir = tempDir();
afterAll(() => dir.remove());
const data = join(dir.path, "data");
mkdirSync(join(data, "sessions"), { recursive: true });
copyFileSync(LOG, join(data, "sessions", `${SESSION}.jsonl`));
const env = { UTILITY_DATA_DIR: data };

describe("utility report", () => {
  it("summarises the latest session in the data folder by default", async () => {
    const run = await cli(["report"], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(`session ${SESSION}: 25 records`);
    expect(run.stdout).toContain("  steps 12: retrieve 4, verify 4, tool_call 3, delegate 1");
    expect(run.stdout).toContain("  refused 4: below_floor 1, exact_repeat 1, no_report 1, tool_not_permitted 1");
    expect(run.stdout).toContain("total: 15 steps, 4 refused, 1 override, 3 repeats caught, 1 stop blocked");
    expect(run.stdout).toContain("(2 unreadable lines skipped)");
  });

  it("takes a session id or a path", async () => {
    const byId = await cli(["report", SESSION], { env });
    const byPath = await cli(["report", LOG]);
    expect(byId.stdout).toBe(byPath.stdout);
  });

  it("--json gives the summary with the file it read", async () => {
    const run = await cli(["report", SESSION, "--json"], { env });
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({
      file: join(data, "sessions", `${SESSION}.jsonl`),
      skippedLines: 2,
      session: SESSION,
      records: 25,
      totals: { steps: 15, refusals: 4 },
    });
    expect(json.scopes.map((s: { key: string }) => s.key)).toEqual(["main", "agent:a7f3c2e1"]);
  });

  it("--html FILE writes one page and says where", async () => {
    const run = await cli(["report", SESSION, "--html", "out.html"], { env, cwd: dir.path });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`wrote ${join(dir.path, "out.html")} (25 records)\n`);
    const html = readFileSync(join(dir.path, "out.html"), "utf8");
    expect((html.match(/<g class="mark[ "]/g) ?? []).length).toBe(14); // one mark per decision with a report
  });

  it("bad arguments, unknown sessions, unsafe ids: one line, exit 2", async () => {
    const cases = [
      ["report", "--json", "--html", "x.html", SESSION],
      ["report", "a", "b"],
      ["report", "--html"],
      ["report", "--bogus"],
      ["report", "no-such-session"],
      ["report", "missing.jsonl"],
      ["report", "bad id!"],
      ["report", SESSION, "--html", join(dir.path, "no", "such", "dir", "x.html")],
    ];
    for (const argv of cases) {
      const run = await cli(argv, { env, cwd: dir.path });
      expect(run.code, argv.join(" ")).toBe(2);
      expect(run.stdout, argv.join(" ")).toBe("");
      expect(run.stderr.trimEnd().split("\n"), argv.join(" ")).toHaveLength(1);
    }
    const empty = await cli(["report"], { env: { UTILITY_DATA_DIR: join(dir.path, "nothing") } });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^utility report: no session logs in /);
  });
});
