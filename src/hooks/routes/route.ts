import type { HookContext } from "../context.js";
import type { HookResult } from "../output.js";
import type { Schema } from "../run.js";

/** One hook event: the schema its input must pass, and the handler that answers it. */
export interface HookRoute<T> {
  schema: Schema<T>;
  handler: (input: T, ctx: HookContext) => Promise<HookResult>;
}

export const route = <T>(schema: Schema<T>, handler: HookRoute<T>["handler"]): HookRoute<T> => ({ schema, handler });
