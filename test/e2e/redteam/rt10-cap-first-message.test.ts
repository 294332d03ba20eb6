/**
 * Red team 10 (class 4): a subagent's FIRST message already reports more
 * tokens than `agent_token_budget`, and holds three calls in parallel (the
 * calls Claude Code makes right as the message arrives, before any earlier
 * usage of this subagent was read). Promise (SPEC §16): a subagent past its
 * cap has its calls refused; the calls of the message that crossed it are
 * refused (as the background-agent e2e pins for a second message): none runs.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths.js";
import { runClaude } from "../support/claude.js";
import { firstUserText, routeByPrompt, text, toolUse, type RecordedRequest } from "../support/scripted-model.js";
import { id, markerDir, ran, touch } from "../gate/support.js";
import { byId, homeWithOptions, show } from "./rt10-support.js";

describe("a subagent whose first message is past its token cap, with parallel calls", () => {
  it("none of its calls runs", async () => {
    const marks = markerDir();
    const ids = { agent: id("rt10_fm_agent"), a: id("rt10_fm_a"), b: id("rt10_fm_b"), c: id("rt10_fm_c") };
    const run = await runClaude({
      prompt: "delegate",
      pluginDir: ROOT,
      home: homeWithOptions({ agent_token_budget: 3000 }),
      allowedTools: ["Bash", "Agent"],
      timeoutMs: 120_000,
      usage: (req: RecordedRequest) => ({
        input_tokens: firstUserText(req).includes("BIG-JOB") ? 50_000 : 10,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      }),
      script: [
        [toolUse("Agent", { description: "big", prompt: "BIG-JOB: go", subagent_type: "general-purpose" }, ids.agent)],
        [text("Done.")],
      ],
      subagentScript: routeByPrompt([
        [
          "BIG-JOB",
          [[touch(join(marks, "a"), ids.a), touch(join(marks, "b"), ids.b), touch(join(marks, "c"), ids.c)], [text("reporting")]],
        ],
      ]),
    });
    try {
      show(run);
      const ranNow = ["a", "b", "c"].filter((m) => ran(join(marks, m)));
      console.log(
        "ran:",
        ranNow,
        [ids.a, ids.b, ids.c].map((i) => byId(run, i)?.decision),
      );
      expect(ranNow).toEqual([]);
    } finally {
      run.cleanup();
    }
  });
});
