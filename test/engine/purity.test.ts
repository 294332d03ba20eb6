// The engine is the functional core (docs/development.md, "How it is built"): no I/O, no
// clock, no randomness, no Node globals, and no imports but zod and its own
// files, so that every decision it makes is a function of its arguments.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT as repoRoot } from "../support/paths.js";

const ENGINE = join(repoRoot, "src", "engine");
/** Ingestion (transcript lines → the machine's events) is pure too. */
const INGEST = join(repoRoot, "src", "ingest");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The code without its comments (a comment may name what the code must not use). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const FORBIDDEN: Array<[string, RegExp]> = [
  ["reads no clock", /\bDate\b|\bperformance\b|\bprocess\.hrtime\b/],
  ["draws no randomness", /\bMath\.random\b|\bcrypto\b/],
  [
    "uses no Node global",
    /\b(Buffer|process|global|globalThis|require|module|exports|__dirname|__filename|setTimeout|setInterval|setImmediate|queueMicrotask|console|fetch)\b/,
  ],
  ["uses no import.meta", /\bimport\.meta\b/],
];

describe("src/engine is pure", () => {
  const files = [...sources(ENGINE), ...sources(INGEST)];

  it("has source files to check", () => {
    expect(files.map((f) => relative(ENGINE, f))).toContain("redundancy.ts");
  });

  // Read without the contents of string literals: a string may name what the code must not use (`"--require"`).
  const withoutStrings = (text: string) => text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');

  it.each(FORBIDDEN)("%s", (_what, pattern) => {
    const uses = files.flatMap((f) =>
      withoutStrings(code(f))
        .split("\n")
        .map((line, i) => ({ at: `${relative(repoRoot, f)}:${i + 1}`, line }))
        .filter(({ line }) => pattern.test(line)),
    );
    expect(uses).toEqual([]);
  });

  /** Ingestion may read the transcript parser's pure modules (line.ts, line-events.ts, scope-events.ts: no I/O) besides the engine. */
  const PURE_TRANSCRIPT = ["line.js", "line-events.js", "scope-events.js", "line-filter.js"].map((f) =>
    join(repoRoot, "src", "transcript", f),
  );
  const allowed = (f: string, spec: string) => {
    const target = resolve(dirname(f), spec);
    if (!relative(ENGINE, target).startsWith("..")) return true;
    return f.startsWith(INGEST) && (!relative(INGEST, target).startsWith("..") || PURE_TRANSCRIPT.includes(target));
  };

  it("imports nothing but zod and its own files (ingestion: and the transcript parser's pure modules)", () => {
    const outside = files.flatMap((f) =>
      [...code(f).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)]
        .map((m) => m[1]!)
        .filter((spec) => !(spec === "zod" || spec.startsWith("zod/") || (spec.startsWith(".") && allowed(f, spec))))
        .map((spec) => `${relative(repoRoot, f)}: ${spec}`),
    );
    expect(outside).toEqual([]);
  });
});
