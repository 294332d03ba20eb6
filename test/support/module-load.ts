import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { ROOT } from "./paths.js";

/**
 * One test per module under `src/<area>`: importing it must not throw.
 * Most of a zod schema is built when its module loads, so a broken schema
 * (a union option without its discriminator, say) throws there. The import
 * is dynamic, inside the test, on purpose: a test file whose own static
 * imports throw collects no test, and Stryker's vitest runner then scores the
 * mutant that broke the module as survived (docs/mutation.md).
 */
export function eachModuleLoads(area: string): void {
  const dir = join(ROOT, "src", area);
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort();
  it("finds the area's modules", () => expect(files.length).toBeGreaterThan(0));
  it.each(files)(`src/${area}/%s loads`, async (file) => {
    const module: Record<string, unknown> = await import(pathToFileURL(join(dir, file)).href);
    expect(Object.keys(module).length, relative(ROOT, join(dir, file))).toBeGreaterThan(0);
  });
}
