/**
 * The numbers the model reads (skill, modules, agent, command) against the
 * engine's constants. Each number sits in a predictable place in the
 * Markdown (a defaults table, a formula line, a ratio table); the regexes
 * below read it there, so changing one side without the other fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONFIG,
  DEFAULT_STUCK_AFTER,
  DEFAULT_WINDOW_HOURS,
  DISPATCH_OVERHEAD,
  MODEL_RATIOS,
  STEP_COST_WEIGHTS,
  STUCK_REDUNDANCY,
  TIE_BREAK_ORDER,
  UTILITY_MAX,
  UTILITY_MIN,
} from "../../src/engine/defaults.js";
import { computeStepCost, type ModelTier } from "../../src/engine/step-cost.js";
import { roundUtility, utility } from "../../src/engine/utility.js";
import { OPT_IN_KEYS } from "../../src/optin/schema.js";
import { formatContextLine, type ContextSpend } from "../../src/engine/context-line.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SKILL = "plugin/skills/utility-scoring/SKILL.md";
const MODULES = "plugin/skills/utility-scoring/modules";
const MODULE_NAMES = ["step-cost", "subagent", "dispatch", "authoring"];
const ALL_FILES = [
  SKILL,
  ...MODULE_NAMES.map((m) => `${MODULES}/${m}.md`),
  "examples/skills/gated-example/SKILL.md",
  "plugin/agents/utility-scorer.md",
  "plugin/skills/utility/SKILL.md",
];

/** File text with typographic minus and dashes made plain, so `−0.5` reads as `-0.5` and `1–3` as `1-3`. */
function read(file: string): string {
  return readFileSync(join(ROOT, file), "utf8")
    .replace(/\u2212/g, "-")
    .replace(/\u2013/g, "-");
}

const lambdas = [...DEFAULT_CONFIG.lambdas] as [number, number, number];

/** The value cell of a `| \`key\` | value | … |` row. */
function tableValue(text: string, key: string): string {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`^\\|\\s*\`${escaped}\`\\s*\\|\\s*([^|]+?)\\s*\\|`, "m").exec(text);
  if (!match) throw new Error(`no table row for ${key}`);
  return match[1]!;
}

function numberList(text: string): number[] {
  const inner = /^\[(.*)\]$/.exec(text.trim());
  if (!inner) throw new Error(`not a list: ${text}`);
  return inner[1]!.split(",").map((s) => Number(s.trim()));
}

function allMatches(re: RegExp, files = ALL_FILES): Array<{ file: string; m: RegExpExecArray }> {
  const out: Array<{ file: string; m: RegExpExecArray }> = [];
  for (const file of files) {
    const text = read(file);
    const global = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
    for (const m of text.matchAll(global)) out.push({ file, m: m as RegExpExecArray });
  }
  return out;
}

describe("SKILL.md defaults table", () => {
  const text = read(SKILL);

  it("λ, floor, max_steps and the high-gain threshold match DEFAULT_CONFIG", () => {
    expect([Number(tableValue(text, "λ1")), Number(tableValue(text, "λ2")), Number(tableValue(text, "λ3"))]).toEqual(lambdas);
    expect(Number(tableValue(text, "floor"))).toBe(DEFAULT_CONFIG.floor);
    expect(Number(tableValue(text, "max_steps"))).toBe(DEFAULT_CONFIG.maxSteps);
    expect(Number(tableValue(text, "high_gain"))).toBe(DEFAULT_CONFIG.highGainThreshold);
  });

  it("the U range matches UTILITY_MIN and UTILITY_MAX, which follow from the default λ", () => {
    expect(numberList(tableValue(text, "U range"))).toEqual([UTILITY_MIN, UTILITY_MAX]);
    expect(UTILITY_MAX).toBe(1);
    expect(UTILITY_MIN).toBeCloseTo(-(lambdas[0] + lambdas[1] + lambdas[2]), 12);
    const derivation = /(-?[\d.]+) = 0 - ([\d.]+) - ([\d.]+) - ([\d.]+)/.exec(text);
    expect(derivation && derivation.slice(1).map(Number)).toEqual([UTILITY_MIN, ...lambdas]);
  });

  it("states the formula", () => {
    expect(text).toContain("U(a) = Gain(a) - λ1·StepCost(a) - λ2·Uncertainty(a) - λ3·Redundancy(a)");
  });
});

describe("λ, floor, max_steps and the high-gain threshold wherever they are stated", () => {
  it("every `λ … [a, b, c]` is the default λ", () => {
    const found = allMatches(/λ[^[\n]{0,30}\[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\]/);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { file, m } of found) expect([file, m.slice(1, 4).map(Number)]).toEqual([file, lambdas]);
  });

  it("every `floor (default X)` and `floor (X unless given)` is the default floor", () => {
    const found = allMatches(/floor \((?:default )?(-?\d+(?:\.\d+)?)/);
    expect(found.length).toBeGreaterThanOrEqual(1);
    for (const { file, m } of found) expect([file, Number(m[1])]).toEqual([file, DEFAULT_CONFIG.floor]);
  });

  it("every `max_steps (default N)` is the default budget", () => {
    const found = allMatches(/max_steps`?(?:: the budget)? \(default (\d+)\)/);
    expect(found.length).toBeGreaterThanOrEqual(1);
    for (const { file, m } of found) expect([file, Number(m[1])]).toEqual([file, DEFAULT_CONFIG.maxSteps]);
  });

  it("every `Gain ≥ X` is the high-gain threshold", () => {
    const found = allMatches(/Gain ≥ (\d+(?:\.\d+)?)/);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { file, m } of found) expect([file, Number(m[1])]).toEqual([file, DEFAULT_CONFIG.highGainThreshold]);
  });
});

describe("tie-break order", () => {
  const order = TIE_BREAK_ORDER.join(", ");

  it("SKILL.md states TIE_BREAK_ORDER on a line of its own", () => {
    for (const file of [SKILL]) {
      const line = read(file)
        .split("\n")
        .find((l) =>
          /^(stop|respond|verify|retrieve|tool_call|delegate)(, (stop|respond|verify|retrieve|tool_call|delegate))+$/.test(l.trim()),
        );
      expect([file, line?.trim()]).toEqual([file, order]);
    }
  });

  it("the scorer agent states the same order", () => {
    expect(/ties go to ([a-z_, ]+), in that order/i.exec(read("plugin/agents/utility-scorer.md").replace(/\s+/g, " "))?.[1]).toBe(order);
  });
});

const CEILING_FORMULA = /([\d.]+)·\(step\/max_steps\) \+ ([\d.]+)·\(tokens\/token_ceiling\) \+ ([\d.]+)·model_ratio/;
const NO_CEILING_FORMULA = /([\d.]+)·\(step\/max_steps\) \+ ([\d.]+)·model_ratio/;

describe("step-cost.md, dispatch.md and the scorer agent against the step-cost constants", () => {
  const text = read(`${MODULES}/step-cost.md`);
  const dispatch = read(`${MODULES}/dispatch.md`);
  const flatAgent = read("plugin/agents/utility-scorer.md").replace(/\s+/g, " ");

  it("the formula lines carry STEP_COST_WEIGHTS", () => {
    const { withCeiling: w, noCeiling: n } = STEP_COST_WEIGHTS;
    for (const source of [text, flatAgent]) {
      expect(CEILING_FORMULA.exec(source)?.slice(1, 4).map(Number)).toEqual([w.progress, w.tokens, w.model]);
      expect(NO_CEILING_FORMULA.exec(source)?.slice(1, 3).map(Number)).toEqual([n.progress, n.model]);
    }
    expect(n.tokens).toBe(0);
    expect(text).toMatch(/^StepCost = [\d.]+·\(step\/max_steps\) \+ [\d.]+·\(tokens\/token_ceiling\) \+ [\d.]+·model_ratio$/m);
    expect(text).toMatch(/^StepCost = [\d.]+·\(step\/max_steps\) \+ [\d.]+·model_ratio$/m);
  });

  it("the model ratio table is MODEL_RATIOS", () => {
    const rows = Object.fromEntries([...text.matchAll(/^\| (haiku|sonnet|opus) \| ([\d.]+) \|$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(rows).toEqual(MODEL_RATIOS);
    const agent = /model ratio haiku ([\d.]+), sonnet ([\d.]+), opus ([\d.]+)/.exec(flatAgent);
    expect(agent?.slice(1, 4).map(Number)).toEqual([MODEL_RATIOS.haiku, MODEL_RATIOS.sonnet, MODEL_RATIOS.opus]);
  });

  it("the dispatch overhead table is DISPATCH_OVERHEAD", () => {
    const rows = [...dispatch.matchAll(/^\| (\d+)(?:-(\d+)|\+) \| \+([\d.]+) \|$/gm)].map((m) => ({
      minAgents: Number(m[1]),
      maxAgents: m[2] === undefined ? Infinity : Number(m[2]),
      add: Number(m[3]),
    }));
    expect(rows).toEqual(DISPATCH_OVERHEAD.map((b) => ({ ...b })));
    const agent = [...flatAgent.matchAll(/\+([\d.]+) for (\d+)(?:-(\d+)|\+)/g)].map((m) => ({
      minAgents: Number(m[2]),
      maxAgents: m[3] === undefined ? Infinity : Number(m[3]),
      add: Number(m[1]),
    }));
    expect(agent).toEqual(DISPATCH_OVERHEAD.map((b) => ({ ...b })));
  });

  it("says the result is clamped to [0, 1]", () => {
    expect(text).toContain("Clamp the result to [0, 1].");
    expect(flatAgent).toContain("clamp to [0, 1]");
  });

  it("the worked example is computeStepCost's value for step 3 of 10 on opus, no ceiling", () => {
    const m = /^([\d.]+)·([\d.]+) \+ ([\d.]+)·([\d.]+) = ([\d.]+)$/m.exec(text);
    expect(m).not.toBeNull();
    const [w1, progress, w3, ratio, result] = m!.slice(1, 6).map(Number) as [number, number, number, number, number];
    expect([w1, w3]).toEqual([STEP_COST_WEIGHTS.noCeiling.progress, STEP_COST_WEIGHTS.noCeiling.model]);
    expect(progress).toBe(3 / 10);
    expect(ratio).toBe(MODEL_RATIOS.opus);
    expect(result).toBe(0.503);
    expect(computeStepCost({ step: 3, maxSteps: 10, model: "opus" }).value).toBeCloseTo(result, 12);
  });

  it("every row of the worked values table is computeStepCost's result", () => {
    const section = text.slice(text.indexOf("## Worked values"));
    const rows = [...section.matchAll(/^\| (\d+) \| (\d+) \| (haiku|sonnet|opus) \| ([^|]+) \| (\d+) \| ([^|]+) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(6);
    let sawClamp = false;
    for (const [, step, maxSteps, model, tokens, agents, cost] of rows) {
      const ceiling = /^(\d+) \/ (\d+)$/.exec(tokens!.trim());
      const result = computeStepCost({
        step: Number(step),
        maxSteps: Number(maxSteps),
        model: model as ModelTier,
        ...(ceiling ? { tokens: Number(ceiling[1]), tokenCeiling: Number(ceiling[2]) } : {}),
        agents: Number(agents),
      });
      const stated = /^([\d.]+)(?: \(([\d.]+) clamped\))?$/.exec(cost!.trim());
      expect(stated, cost).not.toBeNull();
      expect(result.value).toBeCloseTo(Number(stated![1]), 12);
      if (stated![2] !== undefined) {
        sawClamp = true;
        expect(result.clamped).toBe(true);
        expect(result.raw).toBeCloseTo(Number(stated![2]), 12);
      } else {
        expect(result.clamped).toBe(false);
      }
    }
    expect(sawClamp).toBe(true);
  });

  it("respond pays the model term only, stop pays nothing", () => {
    expect(text).toContain(
      `the model term only, ${STEP_COST_WEIGHTS.noCeiling.model}·model_ratio (${STEP_COST_WEIGHTS.withCeiling.model}·model_ratio with a`,
    );
    expect(text).toMatch(/^- `stop`: 0\.$/m);
  });
});

describe("arithmetic written out in the Markdown", () => {
  it("every `a − b − c − d = e` is right (terms may be written k·x)", () => {
    const n = "\\d+(?:\\.\\d+)?";
    const term = `(?:(${n})·)?(${n})`;
    const re = new RegExp(`(?<![\\d.·])(-?${n}) - ${term} - ${term} - ${term} = (-?${n})`);
    const found = allMatches(re);
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const { file, m } of found) {
      const t = (k: string | undefined, x: string) => (k === undefined ? 1 : Number(k)) * Number(x);
      const value = Number(m[1]) - t(m[2], m[3]!) - t(m[4], m[5]!) - t(m[6], m[7]!);
      const stated = m[8]!;
      const decimals = stated.split(".")[1]?.length ?? 0;
      expect([file, m[0], Math.abs(value - Number(stated)) < (decimals <= 2 ? 0.005 : 1e-9)]).toEqual([file, m[0], true]);
    }
  });

  it("every `a·b + c·d … = e` product sum is right", () => {
    const found = allMatches(/(?<![\d.·]|- )((?:\d+(?:\.\d+)?·\d+(?:\.\d+)?)(?: \+ \d+(?:\.\d+)?·\d+(?:\.\d+)?)*) = (\d+(?:\.\d+)?)/);
    // Few since the line hands the model its StepCost (issue 20): the worked example, and U's terms.
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const { file, m } of found) {
      const sum = m[1]!.split(" + ").reduce((acc, p) => {
        const [a, b] = p.split("·").map(Number) as [number, number];
        return acc + a * b;
      }, 0);
      expect([file, m[0], sum]).toEqual([file, m[0], expect.closeTo(Number(m[2]), 9)]);
    }
  });

  it("the U values listed after each candidate table are that table's", () => {
    let tables = 0;
    for (const file of ALL_FILES) {
      const text = read(file);
      for (const fence of text.matchAll(/^```[^\n]*\n([\s\S]*?)^```\n/gm)) {
        const rows = [...fence[1]!.matchAll(/^- ([a-z_]+): Gain=([\d.]+) StepCost=([\d.]+) Uncertainty=([\d.]+) Redundancy=([\d.]+)$/gm)];
        if (rows.length === 0) continue;
        const after = text.slice(fence.index! + fence[0].length, fence.index! + fence[0].length + 400);
        const listed = new Map(
          [...after.matchAll(/\b(respond|retrieve|verify|tool_call|delegate|stop)\s+(-?\d+(?:\.\d+)?)/g)].map((m) => [m[1]!, m[2]!]),
        );
        if (listed.size === 0) continue;
        tables++;
        for (const [, action, gain, stepCost, uncertainty, redundancy] of rows) {
          const u = utility(
            { gain: Number(gain), stepCost: Number(stepCost), uncertainty: Number(uncertainty), redundancy: Number(redundancy) },
            lambdas,
          );
          const stated = listed.get(action!);
          expect([file, action, stated !== undefined]).toEqual([file, action, true]);
          const decimals = stated!.split(".")[1]?.length ?? 0;
          expect([file, action, Math.abs(u - Number(stated)) < (decimals <= 2 ? 0.005 + 1e-9 : 1e-9)]).toEqual([file, action, true]);
        }
      }
    }
    expect(tables).toBeGreaterThanOrEqual(1);
  });

  it("the canonical example gives U = 0.28 with the default λ", () => {
    const text = read(SKILL);
    expect(text).toContain("U = 0.7 - 0.12 - 0.30 - 0.0 = 0.28");
    expect(roundUtility(utility({ gain: 0.7, stepCost: 0.12, uncertainty: 0.6, redundancy: 0 }, lambdas))).toBe(0.28);
  });

  it("the rounding examples are half away from zero", () => {
    const text = read(SKILL);
    const pairs = [...text.matchAll(/(-?\d\.\d{3}) → (-?\d\.\d{2})/g)];
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    for (const [, raw, rounded] of pairs) expect(roundUtility(Number(raw))).toBe(Number(rounded));
  });
});

describe("scales, bonus and the paper's figures", () => {
  const BANDS = [
    [0, 0.2],
    [0.3, 0.5],
    [0.6, 0.8],
    [0.9, 1.0],
  ];

  it("SKILL.md's one table of Gain and Uncertainty bands has the four bands", () => {
    for (const file of [SKILL]) {
      const bands = [...read(file).matchAll(/^\| ([\d.]+)-([\d.]+) \|/gm)].map((m) => [Number(m[1]), Number(m[2])]);
      expect([file, bands]).toEqual([file, BANDS]);
    }
  });

  it("no Gain bonus for a task list the model writes itself (docs/guidance-decisions.md)", () => {
    expect(allMatches(/task bonus|tracked task|\(cap(?:ped at)? 1\)/i)).toEqual([]);
  });

  it("the paper's figures are stated the same way everywhere", () => {
    for (const { m } of allMatches(/r = (0\.\d+)/)) expect(m[1]).toBe("0.0131");
    const tokens = /from (\d+) to (\d+) \(about (\d+)%\)/.exec(read(`${MODULES}/authoring.md`).replace(/\s+/g, " "));
    expect(tokens?.slice(1, 3).map(Number)).toEqual([1294, 1157]);
    expect(Math.abs((1 - 1157 / 1294) * 100 - Number(tokens![3]))).toBeLessThan(1);
  });

  it("the Redundancy scale: 0.9 for lines already read, about 0.6 for a near-identical search, about 0.3 after one's own edit, 0 for a related file", () => {
    const text = read(SKILL).replace(/\s+/g, " ");
    expect(text).toContain("Lines already in your context: 0.9.");
    expect(text).toContain('("error" after "exception"): about 0.6.');
    expect(text).toContain("Re-reading a file after your own edit: about 0.3");
    expect(text).toContain("A different file, even a related one: 0.0.");
  });
});

describe("authoring.md opt-in table", () => {
  const text = read(`${MODULES}/authoring.md`);

  it("lists exactly the keys the schema reads", () => {
    const keys = [...text.matchAll(/^\| `(utility_[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(keys).toEqual([...OPT_IN_KEYS]);
  });

  it("its defaults and ranges are the engine's", () => {
    const row = (key: string) => {
      const m = new RegExp(`^\\| \`${key}\` \\| ([^|]+) \\| ([^|]+) \\|`, "m").exec(text);
      if (!m) throw new Error(`no row ${key}`);
      return { type: m[1]!.trim(), default: m[2]!.trim() };
    };
    expect(row("utility_gated").default).toBe("false");
    expect(row("utility_floor").type).toBe(`number in [${UTILITY_MIN}, ${UTILITY_MAX.toFixed(1)}]`);
    expect(Number(row("utility_floor").default)).toBe(DEFAULT_CONFIG.floor);
    expect(Number(row("utility_max_steps").default)).toBe(DEFAULT_CONFIG.maxSteps);
    expect(numberList(row("utility_lambdas").default)).toEqual(lambdas);
    expect(row("utility_scope").default).toBe("self");
    expect(Number(row("utility_stuck_after").default)).toBe(DEFAULT_STUCK_AFTER);
  });
});

describe("the plugin's `utility:` line as the Markdown shows it", () => {
  const count = (text: string) => Number(text.replace(/k$/, "")) * (text.endsWith("k") ? 1000 : 1);
  const money = (text: string) => Number(text.replace(/^\$/, ""));

  it("every example line is what formatContextLine writes for the numbers it shows", () => {
    const found = allMatches(/(?:`|^)(utility: (\d+) of (\d+) steps taken · (haiku|sonnet|opus)[^`\n]*)/m);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const { file, m } of found) {
      const line = m[1]!;
      const spend: ContextSpend = {};
      const budgets: ContextSpend = {};
      const parts: Array<[RegExp, keyof ContextSpend, (t: string) => number]> = [
        [/tokens ([\d.]+k?)(?:\/([\d.]+k?))?/, "tokens", count],
        [/(\$[\d.]+)(?:\/(\$[\d.]+))?/, "costUsd", money],
        [/agents (\d+)(?:\/(\d+))?/, "agents", Number],
      ];
      for (const [re, key, read] of parts) {
        const p = re.exec(line);
        if (!p) continue;
        spend[key] = read(p[1]!);
        if (p[2] !== undefined) budgets[key] = read(p[2]);
      }
      // A line without delegate is a subagent's (the examples show no spent agent budget); none shows dispatch overhead.
      const scope = line.includes("tool_call/delegate") || line.includes("no tool call left") ? "self" : "subagent";
      const expected = formatContextLine({
        step: Number(m[2]),
        maxSteps: Number(m[3]),
        tier: m[4] as ModelTier,
        scope,
        ...(line.includes("no tool call left") && Number(m[2]) < Number(m[3]) ? { closed: true } : {}),
        spend,
        budgets,
      });
      expect([file, line]).toEqual([file, expected]);
    }
  });

  it("SKILL.md's step-0 values for a task with no line yet are the line's at step 0", () => {
    const text = read(SKILL).replace(/\s+/g, " ");
    const stated = /costs ([\d.]+) on opus, ([\d.]+) on sonnet, ([\d.]+) on haiku/.exec(text);
    (["opus", "sonnet", "haiku"] as const).forEach((tier, i) =>
      expect(Number(stated![i + 1])).toBeCloseTo(computeStepCost({ step: 0, maxSteps: 10, model: tier }).value, 12),
    );
    for (const tier of ["opus", "sonnet", "haiku"] as const)
      expect(formatContextLine({ step: 0, maxSteps: 10, tier })).toContain(
        `/delegate ${stated![["opus", "sonnet", "haiku"].indexOf(tier) + 1]} ·`,
      );
  });
});

describe("the runaway rules in SKILL.md and authoring.md", () => {
  const skill = read(SKILL).replace(/\s+/g, " ");
  const authoring = read(`${MODULES}/authoring.md`).replace(/\s+/g, " ");

  it("the stuck-loop count, its Redundancy and the window's length are the engine's", () => {
    for (const text of [skill, authoring]) {
      expect(text).toContain(`After ${DEFAULT_STUCK_AFTER} runs of one call with one result`);
      expect(text).toContain(`Redundancy ≥ ${STUCK_REDUNDANCY}`);
    }
    expect(authoring).toContain(`\`stuck_after\` changes the ${DEFAULT_STUCK_AFTER}; 0 turns it off`);
    expect(authoring).toContain(`(${DEFAULT_WINDOW_HOURS} hours unless set)`);
  });
});
