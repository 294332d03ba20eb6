/**
 * Red team 7 (class 4): `token_budget: 2000` in the user's settings (binds in
 * every scope), an ungated session. The model's second message costs 3005
 * tokens and holds four shell calls. An ungated call "does not wait for its
 * own line" (spend.test.ts), so the first call of that message may pass; the
 * promise (README: "the next tool call after it is refused"; brief: a user
 * budget is not passed by more than one call) is that at most one of the four
 * runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { makeScratchHome, runClaude } from "../support/claude.js";
import { text, type RecordedRequest } from "../support/scripted-model.js";
import { id, logOf, markerDir, ran, touch } from "../gate/support.js";

const tokens = (input: number) => ({ input_tokens: input, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

function homeWithOptions(options: Record<string, unknown>): string {
  const home = makeScratchHome();
  const path = join(home, ".claude", "settings.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), pluginConfigs: { "utility@inline": { options } } }));
  return home;
}

it("rt7: four calls in the message that spends the token budget — at most one runs", async () => {
  const marks = markerDir();
  const four = [0, 1, 2, 3];
  const run = await runClaude({
    prompt: "work",
    pluginDir: ROOT,
    home: homeWithOptions({ token_budget: 2000 }),
    allowedTools: ["Bash", "Read"],
    whenExhausted: "error",
    timeoutMs: 90_000,
    usage: (req: RecordedRequest) => tokens(req.kind === "main" && req.turn === 1 ? 3000 : 10),
    script: [
      [touch(join(marks, "first"), id("tb_first"))],
      four.map((i) => touch(join(marks, `big${i}`), id(`tb_big${i}`))),
      [text("Stopped by the budget.")],
      [text("Stopped.")],
    ],
  });
  try {
    const ranBig = four.filter((i) => ran(join(marks, `big${i}`))).length;
    const recs = logOf(run)
      .filter((r) => r.event === "PreToolUse")
      .map((r) => `${r.tool}:${r.decision}:${r.rule ?? ""}`);
    console.log("first ran:", ran(join(marks, "first")), "| of the big message's four, ran:", ranBig, "|", recs.join(" "));
    expect(ranBig).toBeLessThanOrEqual(1);
  } finally {
    run.cleanup();
  }
});
