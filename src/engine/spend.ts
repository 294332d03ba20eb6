import * as z from "zod/mini";

/**
 * What a scope or a task has spent, measured from the transcript (SPEC §12),
 * never taken from the model. This is the shared contract between the
 * scope-state reducer (which accumulates it) and the budget rules and price
 * table (which read it).
 */
const count = () => z.int().check(z.minimum(0));

/** The four usage counts of assistant messages, as the transcript's `message.usage` reports them. */
export const TokenCountsSchema = z.object({
  input: count(),
  output: count(),
  cacheCreation: count(),
  cacheRead: count(),
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

export const SpendSchema = z.object({
  /** All models together; each assistant message (one `message.id`) counted once. */
  tokens: TokenCountsSchema,
  /** The same counts by `message.model` as written in the transcript, so cost can be estimated per model family. */
  byModel: z.record(z.string(), TokenCountsSchema),
  /** Tool calls that ran. */
  toolCalls: count(),
  /** Subagents launched (parallel launches count one each). */
  agentsLaunched: count(),
});
export type Spend = z.infer<typeof SpendSchema>;

export function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
}

export function zeroSpend(): Spend {
  return { tokens: zeroTokens(), byModel: {}, toolCalls: 0, agentsLaunched: 0 };
}

export function totalTokens(tokens: TokenCounts): number {
  return tokens.input + tokens.output + tokens.cacheCreation + tokens.cacheRead;
}

type Counts = Readonly<TokenCounts>;

/** Adds `add`'s counts into `into` (the one place counts are added). */
export function addTokens(into: TokenCounts, add: Counts): void {
  into.input += add.input;
  into.output += add.output;
  into.cacheCreation += add.cacheCreation;
  into.cacheRead += add.cacheRead;
}

type SpendLike = Readonly<{ tokens: Counts; byModel: Readonly<Record<string, Counts>>; toolCalls: number; agentsLaunched: number }>;

/** Adds `add` into `into`: tokens, per model, tool calls and subagents. */
export function addSpend(into: Spend, add: SpendLike): void {
  addTokens(into.tokens, add.tokens);
  for (const [model, tokens] of Object.entries(add.byModel)) addTokens((into.byModel[model] ??= zeroTokens()), tokens);
  into.toolCalls += add.toolCalls;
  into.agentsLaunched += add.agentsLaunched;
}

/** Several spends together (a fresh object). */
export function sumSpend(spends: readonly SpendLike[]): Spend {
  const total = zeroSpend();
  for (const spend of spends) addSpend(total, spend);
  return total;
}
