// The relative imports of the files under a folder of the repository, for layer tests.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./paths.js";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of the files under `dir`, as a path from the repository root. */
export function importsUnder(dir: string): Array<{ file: string; target: string }> {
  return sources(join(ROOT, dir)).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.[^"']+)["']/g)].map((m) => ({
      file: relative(ROOT, file),
      target: relative(ROOT, resolve(dirname(file), m[1]!)),
    })),
  );
}
