// The layout shows the architecture (issue 32): no cycle of imports between
// the folders of src/, nor between its files. Read from the sources' import
// and export lines, type-only ones included (a type cycle still ties two
// modules' meaning together).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.js";

const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Each file's relative imports, as files of src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms)].map((m) =>
      normalize(join(dirname(file), m[1]!)).replace(/\.js$/, ".ts"),
    );
    graph.set(
      relative(SRC, file),
      targets.map((t) => relative(SRC, t)),
    );
  }
  return graph;
}

/** The strongly connected groups of more than one node (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      on.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const folderOf = (file: string) => (file.includes("/") ? file.split("/")[0]! : ".");

describe("src/ imports", () => {
  const graph = importGraph();

  it("are read: every file, and the imports of the ones that have them", () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get("hooks/pre-tool-use.ts")!.length).toBeGreaterThan(10);
  });

  it("form no cycle between files", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("form no cycle between folders", () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...targets.map(folderOf).filter((f) => f !== from)])]);
    }
    expect(cycles(folders)).toEqual([]);
  });

  it("a cycle is found when there is one", () => {
    expect(
      cycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
          ["d", ["a"]],
        ]),
      ),
    ).toEqual([["a", "b", "c"]]);
  });
});
