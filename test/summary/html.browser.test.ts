// The HTML report in a real headless Chromium (Debian's, /usr/bin/chromium; CI installs it):
// one mark per reported step, refusals marked, no network, and a chart you can see.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTION_COLORS } from "../../src/summary/html.js";
import { parseLogText } from "../../src/summary/load.js";
import { cli } from "../support/cli-io.js";
import { ROOT } from "../support/paths.js";
import { colourCounts, decodePng, luminanceVariance } from "./png.js";

const CHROMIUM = "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`html.browser.test: SKIPPED, ${CHROMIUM} is absent (CI installs Debian's chromium through .ci/run)`);

const LOG = join(ROOT, "test", "fixtures", "logs", "gated-session.jsonl");
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

describe.skipIf(!HAVE_CHROMIUM)(`the HTML report in headless Chromium (${CHROMIUM})`, () => {
  const work = mkdtempSync(join(tmpdir(), "utility-html-"));
  const htmlFile = join(work, "report.html");
  const requests: string[] = [];
  let context: BrowserContext;
  let page: Page;
  // Counted from the log text, not by the code under test.
  const logText = readFileSync(LOG, "utf8");
  const lines = logText.split("\n").filter((l) => l.startsWith("{") && l.endsWith("}"));
  const reported = lines.filter((l) => l.includes('"event":"PreToolUse"') && l.includes('"report":{'));
  const refusedReported = reported.filter((l) => l.includes('"decision":"refused"'));

  beforeAll(async () => {
    const run = await cli(["report", LOG, "--html", htmlFile]);
    expect(run.code).toBe(0);
    context = await chromium.launchPersistentContext(join(work, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
    context.on("request", (request) => requests.push(request.url()));
    page = await context.newPage();
    await page.goto(pathToFileURL(htmlFile).href, { waitUntil: "load" });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("draws exactly one mark per PreToolUse record with a report", async () => {
    expect(reported.length).toBe(14);
    expect(await page.locator("svg.chart [data-step]").count()).toBe(reported.length);
    const steps = await page
      .locator("svg.chart [data-step]")
      .evaluateAll((marks) => marks.map((m) => [m.getAttribute("data-step"), m.getAttribute("data-u")]));
    expect(steps.map(([, u]) => Number(u))).toEqual(
      parseLogText(logText)
        .records.filter((r) => r.event === "PreToolUse" && r.report)
        .map((r) => r.report!.utility),
    );
    // Every mark is drawn inside the plot.
    const plot = (await page.locator("svg.chart rect.plot").boundingBox())!;
    for (const mark of await page.locator("svg.chart [data-step]").all()) {
      const box = (await mark.boundingBox())!;
      expect(box.width).toBeGreaterThan(4);
      expect(box.x).toBeGreaterThanOrEqual(plot.x - 10);
      expect(box.x + box.width).toBeLessThanOrEqual(plot.x + plot.width + 10);
    }
  });

  it("marks refusals distinctly and colours marks by action", async () => {
    const refused = page.locator('svg.chart [data-step][data-decision="refused"]');
    expect(await refused.count()).toBe(refusedReported.length);
    expect(refusedReported.length).toBe(2);
    for (const mark of await refused.all()) {
      expect(await mark.getAttribute("class")).toContain("refused");
      expect(await mark.locator("path").count()).toBe(1); // the cross
    }
    expect(await page.locator('svg.chart [data-step]:not([data-decision="refused"]) path').count()).toBe(0);
    const fills = await page.locator('svg.chart [data-step][data-decision="passed"] circle').evaluateAll((circles) => {
      const view = globalThis as unknown as { getComputedStyle(element: unknown): { fill: string } };
      return circles.map((c) => [c.parentElement!.getAttribute("data-action"), view.getComputedStyle(c).fill]);
    });
    for (const [action, fill] of fills) expect(hex(fill!)).toBe(ACTION_COLORS[action!]!.toLowerCase());
    // Calls without a report (no U) sit on the rug below the plot: here, two refused ones.
    expect(await page.locator('svg.chart [data-rug="refused"]').count()).toBe(2);
  });

  it("draws the floor between U = 0 and U = −1, with the override below it", async () => {
    const floor = (await page.locator("svg.chart line.floor").boundingBox())!;
    const zero = (await page.locator("svg.chart line.zero").boundingBox())!;
    expect(floor.y).toBeGreaterThan(zero.y);
    const below = (await page.locator('svg.chart [data-u="-0.62"]').boundingBox())!;
    const above = (await page.locator('svg.chart [data-u="-0.16"]').boundingBox())!;
    expect(below.y + below.height / 2).toBeGreaterThan(floor.y);
    expect(above.y + above.height / 2).toBeLessThan(floor.y);
    expect(await page.locator("svg.chart .floor-label").textContent()).toBe("floor −0.50");
    expect(await page.locator(".legend li").count()).toBe(9); // six actions, refused, floor, no report
  });

  it("shows model text as text: no script, no markup from the log", async () => {
    expect(await page.locator("script").count()).toBe(0);
    expect(await page.locator("table.records b").count()).toBe(0);
    expect(await page.locator("table.records").textContent()).toContain(
      '<script>alert("x")</script> & <b>not bold</b> "quotes" \'single\'',
    );
    expect(await page.locator("table.summary").textContent()).toContain("exact_repeat 1");
  });

  it("made no network request: the page is the only thing loaded", () => {
    expect(requests).toEqual([pathToFileURL(htmlFile).href]);
  });

  it("renders a chart you can see (a non-blank screenshot)", async () => {
    const shot = decodePng(await page.locator("figure").screenshot());
    expect(shot.width).toBeGreaterThan(600);
    expect(luminanceVariance(shot)).toBeGreaterThan(50);
    const colours = colourCounts(shot);
    expect(colours.size).toBeGreaterThan(20);
    // The action colours of the marks are on screen (circle centres are drawn in the exact colour).
    for (const action of ["retrieve", "verify", "tool_call", "delegate"])
      expect(colours.get(ACTION_COLORS[action]!.toLowerCase()) ?? 0, action).toBeGreaterThan(20);
    const page1 = decodePng(await page.screenshot({ fullPage: true }));
    expect(luminanceVariance(page1)).toBeGreaterThan(10);
  });
});
