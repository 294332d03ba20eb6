import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { actionsOf } from "../../src/engine/vocabulary.js";
import { checkReport } from "../../src/engine/report/check.js";
import { parseReports } from "../../src/engine/report/parse.js";
import { defaultConfig } from "../../src/engine/signals.js";
import { selectAction } from "../../src/engine/select.js";
import { ROOT } from "../support/paths.js";

/** Every Markdown file the model reads: skills, their modules, the agent and the command. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

const FILES = ["skills", "agents"].flatMap((d) => markdownFiles(join(ROOT, "plugin", d)));

/** Fenced blocks that hold an Action line: the report examples. */
function reportExamples(): Array<{ where: string; text: string }> {
  return FILES.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)]
      .filter((m) => /^\s*Action:/m.test(m[1]!))
      .map((m) => ({ where: `${relative(ROOT, file)}:${text.slice(0, m.index).split("\n").length}`, text: m[1]! }));
  });
}

const examples = reportExamples();

describe("every report example in the Markdown", () => {
  it("there are examples of both forms", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    expect(examples.some((e) => /^Candidates:/m.test(e.text))).toBe(true);
    expect(examples.some((e) => !/^Candidates:/m.test(e.text))).toBe(true);
  });

  it.each(examples.map((e) => [e.where, e.text]))("%s parses and checks", (_where, text) => {
    const reports = parseReports(text);
    expect(reports.length).toBeGreaterThan(0);
    for (const parsed of reports) {
      if (!parsed.ok) expect.fail(parsed.problems.map((p) => p.message).join(" "));
      const report = parsed.value;
      const outcome = checkReport(report, { scope: "dispatch", step: 0, config: defaultConfig() });
      // respond and stop end the loop: the gate refuses a tool call under them, which is the point of such an example.
      if (!outcome.ok) expect(outcome.refusal.rule, outcome.refusal.message).toBe("loop_ended");
      if (!outcome.ok) expect(["respond", "stop"]).toContain(report.action);
      if (report.candidates) {
        expect(selectAction(report.candidates, defaultConfig().lambdas).best.action).toBe(report.action);
        for (const c of report.candidates) expect(actionsOf("dispatch")).toContain(c.action);
      }
    }
  });
});
