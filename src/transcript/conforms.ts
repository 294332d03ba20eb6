// A zod/mini schema of what Claude Code writes, turned into a check that
// copies nothing. Pure.
//
// safeParse of a loose object builds a new object with every key of the line
// (and new arrays, nested objects): on a transcript's tool results that is
// most of replay's garbage. The lines' fields are only read, so a check that
// says whether the value would parse, and then the value itself, gives the
// same fields without the copies. The schema stays the one definition: the
// check is compiled from it, and test/transcript/conforms.test.ts holds the
// two to the same answers.
import type * as z from "zod/mini";

/** Would `schema.safeParse(value)` succeed? No value is copied or changed. */
export type Conforms = (value: unknown) => boolean;

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  values?: readonly unknown[];
  options?: readonly z.ZodMiniType[];
  element?: z.ZodMiniType;
  checks?: readonly unknown[];
  coerce?: boolean;
}

const compiled = new WeakMap<z.ZodMiniType, Conforms>();

/** The check of `schema`, compiled once. Throws for a kind of schema it cannot answer for exactly (a refinement, a strict object, …). */
export function conforms(schema: z.ZodMiniType): Conforms {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** `value` itself when it conforms to `schema` (what safeParse would give, field for field, without copying), else undefined. */
export function conformingValue<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> | undefined {
  return conforms(schema)(value) ? (value as z.infer<S>) : undefined;
}

/** The reference: what safeParse gives, or undefined. */
export function parsedValue<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** How a line's fields are read: `conformingValue` (replay, the hooks) or `parsedValue` (the reference it is tested against). */
export type ReadAs = <S extends z.ZodMiniType>(schema: S, value: unknown) => z.infer<S> | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Schemas that hold no other schema. */
const LEAVES: Record<string, Conforms> = {
  unknown: () => true,
  string: (value) => typeof value === "string",
  boolean: (value) => typeof value === "boolean",
  // As zod: NaN and ±Infinity (JSON.parse gives Infinity for 1e999) are not numbers.
  number: (value) => typeof value === "number" && Number.isFinite(value),
};

function compile(schema: z.ZodMiniType): Conforms {
  const def = schema._zod.def as unknown as Def;
  if ((def.checks?.length ?? 0) > 0 || def.coerce)
    throw new Error(`conforms: a ${def.type} schema with checks or coercion is not supported`);
  const leaf = Object.hasOwn(LEAVES, def.type) ? LEAVES[def.type] : undefined;
  return leaf ?? compileComposite(def);
}

function compileComposite(def: Def): Conforms {
  switch (def.type) {
    case "literal": {
      const values = new Set(def.values);
      return (value) => values.has(value);
    }
    case "optional": {
      const inner = compile(def.innerType!);
      return (value) => value === undefined || inner(value);
    }
    case "nullable": {
      const inner = compile(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case "union": {
      const options = def.options!.map(compile);
      return (value) => options.some((option) => option(value));
    }
    case "array": {
      const element = compile(def.element!);
      return (value) => Array.isArray(value) && value.every((item) => element(item));
    }
    case "object":
      return compileObject(def);
    default:
      throw new Error(`conforms: a ${def.type} schema is not supported`);
  }
}

/** A loose object only: a strict one refuses unknown keys, a plain one drops them (its value would differ from the input). */
function compileObject(def: Def): Conforms {
  if ((def.catchall?._zod.def as Def | undefined)?.type !== "unknown") throw new Error("conforms: only z.looseObject is supported");
  const fields = Object.entries(def.shape!).map(([key, field]) => [key, compile(field)] as const);
  return (value) => {
    if (!isObject(value)) return false;
    for (const [key, check] of fields) if (!check(value[key])) return false;
    return true;
  };
}
