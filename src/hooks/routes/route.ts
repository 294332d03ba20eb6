import type { HookContext } from "../context.js";
import type { HookResult } from "../records.js";
import type { HookSchema } from "../run.js";

/** One hook event: the schema its input must pass, and the handler that answers it. */
export interface HookRoute<T> {
  schema: HookSchema<T>;
  handler: (input: T, ctx: HookContext) => Promise<HookResult>;
}

export const route = <T>(schema: HookSchema<T>, handler: HookRoute<T>["handler"]): HookRoute<T> => ({ schema, handler });
