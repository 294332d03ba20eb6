// The HTML report in a real headless Chromium (Debian's, /usr/bin/chromium; CI installs it), as
// laid out: every decision marked inside its plot, axes that fit, ticks once each, the floor and
// the budgets in view, words where there is nothing to draw, no network, a chart you can see.
// Structure, not pixels: counts and boxes, read from the page.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTION_COLORS, renderReportHtml } from "../../src/summary/html.js";
import { parseLogText } from "../../src/summary/load.js";
import { buildReportView } from "../../src/summary/report-view.js";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";
import { colourCounts, decodePng, luminanceVariance } from "./png.js";
import { gatedSession, longSession, ungatedSession } from "./report-fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`html.browser.test: SKIPPED, ${CHROMIUM} is absent (CI installs Debian's chromium through .ci/run)`);

const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");
// A real session with outliers: replay suggests a token budget and draws it on the spend chart.
const REPLAYED = join(ROOT, "test", "fixtures", "transcripts");
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((v) => Number(v).toString(16).padStart(2, "0"))
    .join("")}`;

type Box = { x: number; y: number; width: number; height: number };
const inside = (box: Box, plot: Box, slack = 2) =>
  box.x >= plot.x - slack &&
  box.x + box.width <= plot.x + plot.width + slack &&
  box.y >= plot.y - slack &&
  box.y + box.height <= plot.y + plot.height + slack;

describe.skipIf(!HAVE_CHROMIUM)(`the HTML report in headless Chromium (${CHROMIUM})`, () => {
  const work = mkdtempSync(join(tmpdir(), "utility-html-"));
  const requests: string[] = [];
  const files: string[] = [];
  let context: BrowserContext;

  /** A page for a file: opened once, in the one browser. */
  const pages = new Map<string, Page>();
  async function open(name: string): Promise<Page> {
    const file = join(work, `${name}.html`);
    let page = pages.get(file);
    if (!page) {
      page = await context.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      pages.set(file, page);
    }
    return page;
  }
  function write(name: string, html: string): void {
    const file = join(work, `${name}.html`);
    writeFileSync(file, html);
    files.push(pathToFileURL(file).href);
  }

  beforeAll(async () => {
    const run = await cli(["report", LOG, "--html", join(work, "cli.html")]);
    expect(run.code).toBe(0);
    files.push(pathToFileURL(join(work, "cli.html")).href);
    const replay = await cli(["replay", REPLAYED, "--html", join(work, "replay.html")]);
    expect(replay.code).toBe(0);
    files.push(pathToFileURL(join(work, "replay.html")).href);
    const a = gatedSession();
    write("gated", renderReportHtml(buildReportView(a.records, { noProgress: a.noProgress })));
    write("ungated", renderReportHtml(buildReportView(ungatedSession())));
    write("no-spend", renderReportHtml(buildReportView(ungatedSession(false))));
    write("long", renderReportHtml(buildReportView(longSession())));
    context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
    context.on("request", (request) => requests.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(work, { recursive: true, force: true });
  });

  describe("the fixture log, through `utility report --html`", () => {
    // Counted from the log text, not by the code under test.
    const logText = readFileSync(LOG, "utf8");
    const lines = logText.split("\n").filter((l) => l.startsWith("{") && l.endsWith("}"));
    const reported = lines.filter((l) => l.includes('"event":"PreToolUse"') && l.includes('"report":{'));
    const refusedReported = reported.filter((l) => l.includes('"decision":"refused"'));
    const decisions = lines.filter((l) => /"event":"(PreToolUse|Stop|SubagentStop)"/.test(l));

    it("draws one mark per decision with a report, inside the plot, and one rug tick per decision without", async () => {
      const page = await open("cli");
      expect(reported.length).toBe(14);
      const marks = page.locator("svg.u-chart g.mark");
      expect(await marks.count()).toBe(reported.length);
      expect(await marks.evaluateAll((ms) => ms.map((m) => Number(m.getAttribute("data-u"))))).toEqual(
        parseLogText(logText)
          .records.filter((r) => r.event === "PreToolUse" && r.report)
          .map((r) => r.report!.utility),
      );
      expect(await page.locator("svg.u-chart g.rug").count()).toBe(decisions.length - reported.length);
      const plot = (await page.locator("svg.u-chart rect.plot").boundingBox())!;
      for (const mark of await marks.all()) {
        const box = (await mark.boundingBox())!;
        expect(box.width).toBeGreaterThan(4);
        expect(inside(box, plot)).toBe(true);
      }
    });

    it("fits the U axis to the data: the marks and the floor use most of the plot's height", async () => {
      const page = await open("cli");
      const plot = (await page.locator("svg.u-chart rect.plot").boundingBox())!;
      const ys = await Promise.all(
        (await page.locator("svg.u-chart g.mark").all()).map(async (m) => {
          const b = (await m.boundingBox())!;
          return b.y + b.height / 2;
        }),
      );
      expect((Math.max(...ys) - Math.min(...ys)) / plot.height).toBeGreaterThan(0.5);
      const floor = (await page.locator("svg.u-chart line.floor").first().boundingBox())!;
      const zero = (await page.locator("svg.u-chart line.zero").boundingBox())!;
      expect(floor.y).toBeGreaterThan(zero.y);
      expect(inside(floor, plot)).toBe(true);
      const below = (await page.locator('svg.u-chart [data-u="-0.62"]').boundingBox())!;
      const above = (await page.locator('svg.u-chart [data-u="-0.16"]').boundingBox())!;
      expect(below.y + below.height / 2).toBeGreaterThan(floor.y);
      expect(above.y + above.height / 2).toBeLessThan(floor.y);
      expect(await page.locator("svg.u-chart .floor-label").first().textContent()).toBe("floor −0.50");
    });

    it("numbers the x axis 1…n, each once", async () => {
      const page = await open("cli");
      const ticks = await page.locator("svg.u-chart .x-tick").allTextContents();
      expect(ticks).toEqual(decisions.map((_, i) => String(i + 1)));
      expect(await page.locator("svg.steps-chart .x-tick").allTextContents()).toEqual(ticks);
    });

    it("marks refusals distinctly, with their rule, and colours marks by action", async () => {
      const page = await open("cli");
      const refused = page.locator('svg.u-chart g.mark[data-decision="refused"]');
      expect(await refused.count()).toBe(refusedReported.length);
      expect(refusedReported.length).toBe(2);
      for (const mark of await refused.all()) {
        expect(await mark.getAttribute("class")).toContain("refused");
        expect(await mark.locator("path").count()).toBe(1); // the cross
      }
      expect(await page.locator('svg.u-chart g.mark:not([data-decision="refused"]):not([data-decision="blocked"]) path').count()).toBe(0);
      const fills = await page.locator('svg.u-chart g.mark[data-decision="passed"] circle').evaluateAll((circles) => {
        const view = globalThis as unknown as { getComputedStyle(element: unknown): { fill: string } };
        return circles.map((c) => [c.parentElement!.getAttribute("data-action"), view.getComputedStyle(c).fill]);
      });
      for (const [action, fill] of fills) expect(hex(fill!)).toBe(ACTION_COLORS[action!]!.toLowerCase());
      const labels = await page.locator("svg.u-chart .rule-label").allTextContents();
      for (const rule of ["exact_repeat", "tool_not_permitted", "no_report", "below_floor", "stop blocked"]) expect(labels).toContain(rule);
      expect(await page.locator("ol.refusals li").count()).toBe(lines.filter((l) => /"decision":"(refused|blocked)"/.test(l)).length);
    });

    it("gives every mark a text alternative, and every chart a name", async () => {
      const page = await open("cli");
      for (const selector of ["svg.u-chart g.mark", "svg.u-chart g.rug", "svg.steps-chart g.step-mark"]) {
        const titles = await page.locator(selector).evaluateAll((ms) => ms.map((m) => m.querySelector("title")?.textContent ?? ""));
        expect(titles.length).toBeGreaterThan(0);
        for (const t of titles) expect(t).toMatch(/^#\d+ .+ · (passed|refused|observed|blocked)/);
      }
      for (const svg of await page.locator("svg.chart").all()) {
        expect(await svg.getAttribute("role")).toBe("img");
        expect(await svg.getAttribute("aria-label")).toBeTruthy();
      }
    });

    it("shows model text as text: no script, no markup from the log", async () => {
      const page = await open("cli");
      expect(await page.locator("script").count()).toBe(0);
      expect(await page.locator("table.records b").count()).toBe(0);
      expect(await page.locator("table.records").textContent()).toContain(
        '<script>alert("x")</script> & <b>not bold</b> "quotes" \'single\'',
      );
      expect(await page.locator("table.summary").textContent()).toContain("exact_repeat 1");
    });

    it("says it has no spend data, where the spend would be", async () => {
      const page = await open("cli");
      expect(await page.locator('[data-empty="spend"]').first().isVisible()).toBe(true);
      expect(await page.locator("svg.spend-chart").count()).toBe(0);
    });

    it("renders a chart you can see (a non-blank screenshot)", async () => {
      const page = await open("cli");
      const shot = decodePng(await page.locator("figure").screenshot());
      expect(shot.width).toBeGreaterThan(600);
      expect(luminanceVariance(shot)).toBeGreaterThan(50);
      const colours = colourCounts(shot);
      expect(colours.size).toBeGreaterThan(20);
      // The action colours of the marks are on screen (circle centres are drawn in the exact colour).
      for (const action of ["retrieve", "verify", "tool_call", "delegate"])
        expect(colours.get(ACTION_COLORS[action]!.toLowerCase()) ?? 0, action).toBeGreaterThan(20);
      const whole = decodePng(await page.screenshot({ fullPage: true }));
      expect(luminanceVariance(whole)).toBeGreaterThan(10);
    });
  });

  describe("(a) a gated session with refusals, a blocked stop, respond at the end, budgets", () => {
    it("ends with the final respond, and shows the blocked stop", async () => {
      const page = await open("gated");
      const last = page.locator("svg.u-chart g.mark").last();
      expect(await last.getAttribute("data-kind")).toBe("end");
      expect(await last.getAttribute("data-action")).toBe("respond");
      expect(await last.getAttribute("data-seq")).toBe("18");
      expect(await last.locator("rect").count()).toBe(1); // an end of turn is a square
      const blocked = page.locator('svg.u-chart g.mark[data-decision="blocked"]');
      expect(await blocked.count()).toBe(1);
      expect(await blocked.locator("path").count()).toBe(1);
      const plot = (await page.locator("svg.u-chart rect.plot").boundingBox())!;
      expect(inside((await last.boundingBox())!, plot)).toBe(true);
    });

    it("draws the step budget over each task's stretch, and the token and cost budgets, all visible", async () => {
      const page = await open("gated");
      expect(await page.locator('svg.steps-chart line.budget[data-budget="steps"]').count()).toBe(2); // main's two gated stretches
      for (const budget of ["tokens", "cost"]) {
        const lines = page.locator(`svg.spend-${budget} line.budget[data-budget="${budget}"]`);
        expect(await lines.count()).toBe(2); // main's two stretches; the subagent has none
        const plot = (await page.locator(`svg.spend-${budget} rect.plot`).boundingBox())!;
        for (const line of await lines.all()) expect(inside((await line.boundingBox())!, plot)).toBe(true);
      }
      const steps = (await page.locator("svg.steps-chart rect.plot").boundingBox())!;
      for (const line of await page.locator("svg.steps-chart line.budget").all())
        expect(inside((await line.boundingBox())!, steps)).toBe(true);
      expect(await page.locator("svg.steps-chart g.step-mark").count()).toBe(18);
    });

    it("counts identical outcomes and stuck loops per scope", async () => {
      const page = await open("gated");
      expect(await page.locator("table.summary").textContent()).toContain("2 identical, 1 stuck");
      expect(await page.locator(".totals").textContent()).toContain("identical outcomes");
    });
  });

  describe("(b) an ungated session", () => {
    it("draws no U chart and no floor, and says why and what it shows", async () => {
      const page = await open("ungated");
      expect(await page.locator("svg.u-chart").count()).toBe(0);
      expect(await page.locator(".floor").count()).toBe(0);
      const words = page.locator('[data-empty="u-chart"]');
      expect(await words.isVisible()).toBe(true);
      expect(await words.textContent()).toMatch(
        /^Not gated: .*no reports the gate checked.* 14 tool calls .* 1 exact repeat .* what each task spent\.$/,
      );
      expect(await page.locator("svg.steps-chart g.step-mark").count()).toBe(16);
      expect(await page.locator("svg.steps-chart g.step-mark[data-repeat-of]").count()).toBe(1);
      expect(await page.locator("svg.spend-chart").count()).toBe(2);
      expect(await page.locator("svg.spend-chart line.budget").count()).toBe(0);
    });

    it("without spend data, says so", async () => {
      const page = await open("no-spend");
      expect(await page.locator('[data-empty="spend"]').count()).toBe(2);
      expect(await page.locator('[data-empty="spend"]').first().isVisible()).toBe(true);
      expect(await page.locator("svg.spend-chart").count()).toBe(0);
    });
  });

  describe("(c) a long session (70 decisions)", () => {
    it("keeps every mark inside the plot and thins the x ticks to round numbers, each once", async () => {
      const page = await open("long");
      const marks = page.locator("svg.u-chart g.mark");
      expect(await marks.count()).toBe(70);
      const plot = (await page.locator("svg.u-chart rect.plot").boundingBox())!;
      for (const mark of await marks.all()) expect(inside((await mark.boundingBox())!, plot)).toBe(true);
      const ticks = (await page.locator("svg.u-chart .x-tick").allTextContents()).map(Number);
      expect(ticks.length).toBeLessThan(70);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(ticks.every((t) => Number.isInteger(t) && t % 2 === 0)).toBe(true);
      // Tick labels do not overlap one another.
      const boxes = await Promise.all((await page.locator("svg.u-chart .x-tick").all()).map(async (t) => (await t.boundingBox())!));
      for (let i = 1; i < boxes.length; i += 1) expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x + boxes[i - 1]!.width);
      const floor = page.locator("svg.u-chart line.floor");
      expect(await floor.count()).toBe(1); // both tasks gated with one floor: one line across
      expect(inside((await floor.boundingBox())!, plot)).toBe(true);
    });

    it("names a token budget far above the spend instead of flattening the spend under it", async () => {
      const page = await open("long");
      expect(await page.locator("svg.spend-tokens line.budget").count()).toBe(0);
      const named = page.locator("svg.spend-tokens .budget-label.off-chart");
      expect(await named.count()).toBe(2);
      const plot = (await page.locator("svg.spend-tokens rect.plot").boundingBox())!;
      for (const label of await named.all()) expect(inside((await label.boundingBox())!, plot)).toBe(true);
      expect(await page.locator("svg.spend-cost line.budget").count()).toBe(2);
    });
  });

  describe("(d) `utility replay --html` on the fixture sessions", () => {
    it("every label of the spend chart is whole inside the chart (none cut at its right edge)", async () => {
      const page = await open("replay");
      const chart = (await page.locator("svg.spend-rank").boundingBox())!;
      const labels = page.locator("svg.spend-rank text");
      expect(await page.locator("svg.spend-rank .budget-label").count()).toBe(1);
      for (const label of await labels.all()) expect(inside((await label.boundingBox())!, chart, 0)).toBe(true);
    });
  });

  it("the U chart names a task in words, never by an abbreviation such as t6", async () => {
    for (const name of ["cli", "gated", "ungated", "long"]) {
      const labels = await (await open(name)).locator("svg.u-chart .segment-label").allTextContents();
      expect(labels.filter((l) => /^(t\d+|pre)$/.test(l))).toEqual([]);
    }
  });

  it("made no network request: each page is the only thing it loaded", async () => {
    for (const name of ["cli", "replay", "gated", "ungated", "no-spend", "long"]) await open(name);
    expect(requests.sort()).toEqual([...files].sort());
  });
});
