import * as z from "zod/mini";
import type { TokenCounts } from "./spend.js";

/**
 * What tokens cost, per model family, in US dollars per million tokens
 * (SPEC §12): one dated table, kept here and nowhere else. The README's
 * "Spend and budgets" section states the same figures and date.
 *
 * A cache write is priced at the 1-hour rate (2× input): Claude Code 2.1
 * writes 1-hour entries (its transcripts' usage puts every cache-creation
 * token under `ephemeral_1h_input_tokens`), and a budget must not
 * undercount. Sessions that wrote 5-minute entries (1.25× input, Claude
 * Code 1.0) are overestimated. The figure is an estimate, never a bill.
 */
export const MODEL_FAMILIES = ["opus", "sonnet", "haiku"] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

const usdPerMillion = () => z.number().check(z.gte(0));

export const PriceSchema = z.object({
  input: usdPerMillion(),
  output: usdPerMillion(),
  cacheCreation: usdPerMillion(),
  cacheRead: usdPerMillion(),
});
export type Price = z.infer<typeof PriceSchema>;

export const PriceTableSchema = z.object({
  /** When the figures were read from the source. */
  date: z.string(),
  source: z.string(),
  /** The price of each family's current models. */
  families: z.object({ opus: PriceSchema, sonnet: PriceSchema, haiku: PriceSchema }),
  /** Older (or newer) versions priced apart from their family, by `family-version`: `opus-4.1`, `haiku-3.5`. */
  versions: z.record(z.string(), PriceSchema),
  /** A model that names none of the families (Fable, Mythos, an id never seen): the dearest published price, so a cost budget is never undercounted. */
  fallback: PriceSchema,
});
export type PriceTable = z.infer<typeof PriceTableSchema>;

const price = (input: number, output: number, cacheCreation: number, cacheRead: number): Price => ({
  input,
  output,
  cacheCreation,
  cacheRead,
});

const OPUS_3_TO_4_1 = price(15, 75, 30, 1.5);

export const DEFAULT_PRICES: PriceTable = {
  date: "2026-12-01",
  source: "https://platform.claude.com/docs/en/about-claude/pricing (Model pricing: base input, 1h cache writes, cache hits, output)",
  families: {
    // Claude Opus 4.5 to 5
    opus: price(5, 25, 10, 0.5),
    // Claude Sonnet 3.7 to 4.6
    sonnet: price(3, 15, 6, 0.3),
    // Claude Haiku 4.5
    haiku: price(1, 5, 2, 0.1),
  },
  versions: {
    "opus-3": OPUS_3_TO_4_1,
    "opus-4": OPUS_3_TO_4_1,
    "opus-4.1": OPUS_3_TO_4_1,
    "sonnet-5": price(2, 10, 4, 0.2),
    "haiku-3": price(0.25, 1.25, 0.5, 0.03),
    "haiku-3.5": price(0.8, 4, 1.6, 0.08),
  },
  // The dearest of every count on the page: Opus 3 to 4.1 (Fable and Mythos 5 are $10 / $50 / $20 / $1)
  fallback: OPUS_3_TO_4_1,
};

/** The model ratio (§3) of a model with no recognisable family: the highest, so a computed StepCost is never understated. */
export const FALLBACK_FAMILY: ModelFamily = "opus";

export interface ModelName {
  family: ModelFamily;
  /** `4.5`, `4`, `3.5`; undefined for a bare alias such as `opus`. */
  version?: string;
}

// claude-opus-4-5-20251101, claude-sonnet-4-5, claude-haiku-4-5@20251001, anthropic.claude-opus-4-1-20250805-v1:0.
// The minor version is one or two digits not followed by another digit, so a date (-20250514) is never a version.
const NEW_STYLE = /(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2})(?!\d))?(?!\d)/;
// claude-3-5-sonnet-20241022, claude-3-opus-20240229
const OLD_STYLE = /claude-(\d)(?:[-.](\d))?-(opus|sonnet|haiku)/;
const ALIAS = /(?:^|[^a-z])(opus|sonnet|haiku)(?:$|[^a-z])/;

/** Reads a transcript's `message.model` into a family and version; undefined when it names no family. */
export function parseModelId(model: string): ModelName | undefined {
  const id = model.toLowerCase();
  const old = OLD_STYLE.exec(id);
  if (old) return { family: old[3] as ModelFamily, version: old[2] ? `${old[1]}.${old[2]}` : old[1]! };
  const modern = NEW_STYLE.exec(id);
  if (modern) return { family: modern[1] as ModelFamily, version: modern[3] ? `${modern[2]}.${modern[3]}` : modern[2]! };
  const alias = ALIAS.exec(id);
  return alias ? { family: alias[1] as ModelFamily } : undefined;
}

/** The tier of a model as the transcript names it (`claude-opus-4-5-…` → opus), the one reading every rule uses; undefined when it names none. */
export function tierOf(model: string | undefined): ModelFamily | undefined {
  return model === undefined ? undefined : parseModelId(model)?.family;
}

export interface ModelPrice {
  price: Price;
  /** Undefined when the id names no family. */
  family?: ModelFamily;
  /** The id names no family: it was priced at the table's fallback. */
  assumed: boolean;
}

export function priceOf(model: string, table: PriceTable): ModelPrice {
  const name = parseModelId(model);
  if (!name) return { price: table.fallback, assumed: true };
  const versioned = name.version === undefined ? undefined : table.versions[`${name.family}-${name.version}`];
  return { price: versioned ?? table.families[name.family], family: name.family, assumed: false };
}

export function costOfTokens(tokens: TokenCounts, p: Price): number {
  const usd = tokens.input * p.input + tokens.output * p.output + tokens.cacheCreation * p.cacheCreation + tokens.cacheRead * p.cacheRead;
  return usd / 1_000_000;
}

/** Estimated dollars for token counts by `message.model` (a Spend's `byModel`). */
export function estimateCostUsd(byModel: Readonly<Record<string, TokenCounts>>, table: PriceTable = DEFAULT_PRICES): number {
  let usd = 0;
  for (const [model, tokens] of Object.entries(byModel)) usd += costOfTokens(tokens, priceOf(model, table).price);
  return usd;
}

/** Models of `byModel` that spent tokens but name no family, so their cost was assumed. */
export function assumedModels(byModel: Readonly<Record<string, TokenCounts>>, table: PriceTable = DEFAULT_PRICES): string[] {
  return Object.entries(byModel)
    .filter(([model, t]) => priceOf(model, table).assumed && t.input + t.output + t.cacheCreation + t.cacheRead > 0)
    .map(([model]) => model)
    .sort();
}

/** A user's override: per family, any of the four prices. It replaces that family's versioned prices too (the user knows their rates). */
/** The user's override: any of a family's four prices; any other key (a misspelt one, the older `cacheWrite`) is an error, never silently ignored. */
export const PriceOverrideSchema = z.partialRecord(z.enum(MODEL_FAMILIES), z.partial(z.strictObject(PriceSchema.shape)));
export type PriceOverride = z.infer<typeof PriceOverrideSchema>;

export function withOverride(table: PriceTable, override: PriceOverride | undefined): PriceTable {
  if (!override || Object.keys(override).length === 0) return table;
  const families = { ...table.families };
  let versions = { ...table.versions };
  for (const family of MODEL_FAMILIES) {
    const given = override[family];
    if (!given) continue;
    families[family] = { ...families[family], ...given };
    versions = Object.fromEntries(Object.entries(versions).filter(([key]) => !key.startsWith(`${family}-`)));
  }
  return { ...table, date: `${table.date}, with the user's override`, families, versions };
}

/** `$0.0123`: enough digits to see a small spend, never a long tail. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
