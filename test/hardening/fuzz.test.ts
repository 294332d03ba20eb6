/**
 * Fuzz (seeded): random mutations of real hook inputs (the shapes of
 * docs/claude-code-facts.md) against every hook. Thousands run in-process
 * through the same runner the entry scripts use (`runHook`, with a fake
 * stdin/stdout/stderr); a few hundred more run through the real bundled
 * processes. No case may let an exception escape, print more than one line
 * on stderr or a stack trace, print anything but valid hook JSON on stdout,
 * exit non-zero, leave the data folder torn, or touch anything outside it.
 */
import fc from "fast-check";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionStateSchema } from "../../src/engine/session/state.js";
import {
  ENTRIES,
  EVENT_OF,
  GOOD,
  expectDataWhole,
  expectOneLineStderr,
  expectValidOutput,
  hookDist,
  hookInput,
  isServed,
  line,
  pool,
  quickContext,
  report,
  runEntry,
  runInProcess,
  sandbox,
  skillFolder,
  text,
  tree,
  treeDiff,
  use,
  type EntryFile,
  type Sandbox,
} from "./support.js";
import { runServedBatch } from "./served.js";

const GATED = "9a0c1f8e-aaaa-4bbb-8ccc-000000000001";
const OPEN = "9a0c1f8e-aaaa-4bbb-8ccc-000000000002";
const AGENT = "a0b1c2d3e4f5a6b7c";

/**
 * The in-process hooks' context. A case's transcript is written before it runs,
 * and a hook's wait blocks this thread (nothing else writes the transcript), so
 * a wait for a line that is not there cannot see it come: it only idled (15 ms
 * a miss was 13 s of this file's 55). 1 ms still goes once through the wait.
 */
const QUICK = quickContext(1);

/** In-process cases per hook entry, and cases through the real processes in all. */
const IN_PROCESS_RUNS = 2000;
const PROCESS_RUNS = 240;

const KEYS = [
  "session_id",
  "transcript_path",
  "cwd",
  "hook_event_name",
  "permission_mode",
  "prompt_id",
  "effort",
  "tool_name",
  "tool_input",
  "tool_use_id",
  "tool_response",
  "agent_id",
  "agent_type",
  "agent_transcript_path",
  "stop_hook_active",
  "last_assistant_message",
  "prompt",
  "trigger",
  "reason",
] as const;

const nasty = fc.constantFrom(
  "",
  ".",
  "..",
  "../../../../etc/passwd",
  "/etc/passwd",
  "/dev/zero",
  "/proc/self/mem",
  "a\u0000b",
  "x".repeat(5000),
  "ｓｅｓｓｉｏｎ",
  "\ud800",
  "\u202e",
  "C:\\Windows\\x",
  "~/.ssh/id_rsa",
  "%2e%2e%2f",
  "__proto__",
  "constructor",
);

const meaningful = fc.constantFrom(
  // tools
  "Bash",
  "Read",
  "Write",
  "Edit",
  "Agent",
  "Task",
  "Skill",
  "TodoWrite",
  "BashOutput",
  "mcp__srv__tool",
  // ids
  GATED,
  OPEN,
  AGENT,
  "toolu_01",
  "toolu_02",
  "toolu_03",
  "toolu_04",
  "toolu_sub_1",
  // prompts and agent types
  "/utility on",
  "/utility off",
  "/utility:utility status",
  "/gated",
  "utility:utility-scorer",
  "general-purpose",
  "../../x:y",
  // reports
  GOOD("verify"),
  report("stop", "0.28"),
);

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: meaningful },
  { weight: 2, arbitrary: nasty },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, 0, -1, 1e308, Number.MAX_SAFE_INTEGER) },
);

type Mutation =
  | { kind: "drop"; key: string }
  | { kind: "set"; key: string; value: unknown }
  | { kind: "add"; key: string; value: unknown }
  | { kind: "tool_input"; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), key: fc.constantFrom(...KEYS) }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("set" as const), key: fc.constantFrom(...KEYS), value }) },
  fc.record({ kind: fc.constant("add" as const), key: fc.oneof(fc.string({ maxLength: 12 }), nasty), value }),
  fc.record({
    kind: fc.constant("tool_input" as const),
    key: fc.constantFrom("command", "file_path", "path", "run_in_background", "subagent_type", "notebook_path"),
    value,
  }),
);

type ByteMutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; at: number; bit: number }
  | { kind: "insert"; at: number; bytes: Uint8Array }
  | { kind: "replace"; bytes: Uint8Array };

const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("replace" as const), bytes: fc.uint8Array({ maxLength: 64 }) }),
);

interface Case {
  entry: EntryFile;
  base: number;
  mutations: Mutation[];
  bytes: ByteMutation | null;
}

const caseFor = (entry: fc.Arbitrary<EntryFile>): fc.Arbitrary<Case> =>
  fc.record({
    entry,
    base: fc.nat({ max: 3 }),
    mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
    bytes: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: byteMutation }),
  });

function applyBytes(json: string, m: ByteMutation | null): Buffer {
  const bytes = Buffer.from(json);
  if (!m) return bytes;
  switch (m.kind) {
    case "truncate":
      return bytes.subarray(0, m.at % (bytes.length + 1));
    case "flip": {
      const copy = Buffer.from(bytes);
      const i = m.at % copy.length;
      copy[i] = copy[i]! ^ (1 << m.bit);
      return copy;
    }
    case "insert": {
      const i = m.at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, i), m.bytes, bytes.subarray(i)]);
    }
    case "replace":
      return Buffer.from(m.bytes);
  }
}

interface World {
  box: Sandbox;
  /** Inputs to mutate: a gated and an ungated session, each for the main scope and a subagent. */
  bases(entry: EntryFile): Array<Record<string, unknown>>;
}

/** Two sessions with transcripts holding reports, skill activations and a subagent, as the mutations' starting points. */
async function world(prefix: string): Promise<World> {
  const box = sandbox(prefix);
  const gatedSkill = skillFolder(box, "gated", "utility_gated: true");
  const brokenSkill = skillFolder(box, "broken", 'utility_gated: "true"');
  const plainSkill = skillFolder(box, "plain", "");
  const main = [
    line.prompt("/utility on"),
    line.prompt("investigate"),
    line.skill(plainSkill),
    ...line.assistant("msg_1", [text(GOOD("verify")), use("toolu_01", "Bash", { command: "echo one", description: "d" })]),
    line.result("toolu_01", `one\n${GOOD("tool_call")}`),
    ...line.assistant("msg_2", [text(report("stop", "0.28")), use("toolu_02", "Bash", { command: "echo two" })]),
    line.skill(gatedSkill),
    ...line.assistant("msg_3", [text("no report here"), use("toolu_03", "Read", { file_path: "/x" })]),
    line.skill(brokenSkill),
    ...line.assistant("msg_4", [text(`${GOOD("verify")}\n\n${GOOD("retrieve")}`), use("toolu_04", "Read", { file_path: "/y" })]),
  ];
  const gatedTranscript = box.transcript(`${GATED}.jsonl`, main);
  const openTranscript = box.transcript(`${OPEN}.jsonl`, main.slice(1));
  for (const session of [GATED, OPEN]) {
    box.transcript(join(session, "subagents", `agent-${AGENT}.jsonl`), [
      line.prompt("sub task", { sidechain: true, agentId: AGENT }),
      ...line.assistant("msg_s1", [text(GOOD("verify")), use("toolu_sub_1", "Bash", { command: "echo sub" })], {
        sidechain: true,
        agentId: AGENT,
      }),
    ]);
  }
  const env = box.env();
  const seed = (entry: EntryFile, input: Record<string, unknown>) => runInProcess(entry, JSON.stringify(input), env);
  await seed(
    "user-prompt-submit",
    hookInput("user-prompt-submit", { session: GATED, transcript: gatedTranscript }, { prompt: "/utility on" }),
  );
  await seed(
    "user-prompt-submit",
    hookInput("user-prompt-submit", { session: OPEN, transcript: openTranscript }, { prompt: "investigate" }),
  );
  // The inputs depend on the entry only: built once each (building them for every case was 4 s of this file).
  const built = new Map<EntryFile, Array<Record<string, unknown>>>();
  const bases = (entry: EntryFile) => [
    // The gated main scope's stop carries a report selecting a call: the first such stop of the task is blocked.
    hookInput(
      entry,
      { session: GATED, transcript: gatedTranscript, cwd: box.project },
      entry === "stop" ? { last_assistant_message: GOOD("verify") } : {},
    ),
    hookInput(entry, { session: GATED, transcript: gatedTranscript, cwd: box.project, agentId: AGENT }, { tool_use_id: "toolu_sub_1" }),
    hookInput(entry, { session: OPEN, transcript: openTranscript, cwd: box.project }),
    hookInput(entry, {
      session: OPEN,
      transcript: openTranscript,
      cwd: box.project,
      agentId: AGENT,
      agentType: "utility:utility-scorer",
    }),
  ];
  return {
    box,
    bases: (entry) => built.get(entry) ?? built.set(entry, bases(entry)).get(entry)!,
  };
}

function build(w: World, c: Case): Buffer {
  const input: Record<string, unknown> = structuredClone(w.bases(c.entry)[c.base]!);
  for (const m of c.mutations) {
    if (m.kind === "drop") delete input[m.key];
    else if (m.kind === "set" || m.kind === "add") input[m.key] = m.value;
    else {
      const toolInput = input.tool_input && typeof input.tool_input === "object" ? (input.tool_input as Record<string, unknown>) : {};
      input.tool_input = { ...toolInput, [m.key]: m.value };
    }
  }
  return applyBytes(JSON.stringify(input), c.bytes);
}

/** What every case must satisfy, whatever its input. */
function expectNoCrash(entry: EntryFile, out: { stdout: string; stderr: string }, what: string): void {
  try {
    expectOneLineStderr(out.stderr);
    expectValidOutput(EVENT_OF[entry], out.stdout);
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}\nstdout: ${out.stdout.slice(0, 300)}\nstderr: ${out.stderr.slice(0, 300)}`);
  }
}

describe("fuzz: mutated hook inputs", () => {
  describe.each(ENTRIES.map((e) => e.file))("%s in-process", (entry) => {
    let w: World;
    let outside: Map<string, string>;
    beforeAll(async () => {
      w = await world(`utility-fuzz-${entry}-`);
      outside = tree(w.box.root);
    });
    afterAll(() => w.box.remove());

    it(`${IN_PROCESS_RUNS} seeded cases: nothing escapes, output valid, data whole`, async () => {
      const env = w.box.env();
      let denied = 0;
      let errors = 0;
      await fc.assert(
        fc.asyncProperty(caseFor(fc.constant(entry)), async (c) => {
          const stdin = build(w, c);
          let out: { stdout: string; stderr: string };
          try {
            out = await runInProcess(entry, stdin, env, QUICK);
          } catch (error) {
            throw new Error(`an exception escaped runHook: ${String(error)} for ${stdin.toString("utf8").slice(0, 300)}`);
          }
          expectNoCrash(entry, out, stdin.toString("utf8").slice(0, 300));
          if (out.stdout.includes('"deny"') || out.stdout.includes('"block"')) denied++;
          if (out.stderr !== "") errors++;
        }),
        { seed: 0x5eed + ENTRIES.findIndex((e) => e.file === entry), numRuns: IN_PROCESS_RUNS, endOnFailure: true },
      );
      if (process.env.FUZZ_STATS) console.log(entry, { denied, errors });
      expectDataWhole(w.box.data);
      // Nothing outside the data folder was created, changed or removed.
      const now = tree(w.box.root);
      const changed = treeDiff(outside, now).filter((c) => !c.startsWith("added data") && !c.startsWith("changed data"));
      expect(changed).toEqual([]);
      // The mutations reached the decisions, not only the input checks.
      if (entry === "pre-tool-use") expect(denied).toBeGreaterThan(100);
      if (entry === "stop") expect(denied).toBeGreaterThan(0); // once per task
      expect(errors).toBeGreaterThan(IN_PROCESS_RUNS / 10);
      expect(errors).toBeLessThan(IN_PROCESS_RUNS);
    });
  });

  it(`${PROCESS_RUNS} seeded cases through the real bundled hooks: exit 0, output valid, data whole`, async () => {
    const w = await world("utility-fuzz-proc-");
    try {
      const outside = tree(w.box.root);
      const cases = fc.sample(caseFor(fc.constantFrom(...ENTRIES.map((e) => e.file))), { seed: 0xf00d, numRuns: PROCESS_RUNS });
      const env = w.box.env();
      // A command entry runs once per case; a served event's cases go to one hook server, as Claude Code sends a
      // session's hooks, each mutated input sent as it is (as a hook that is not Claude Code's own may send it).
      const commands = cases.filter((c) => !isServed(c.entry));
      const runs = await pool(commands.length, 4, async (i) => {
        const c = commands[i]!;
        const stdin = build(w, c);
        return { c, stdin, run: await runEntry(c.entry, stdin, env, { timeoutMs: 15_000 }) };
      });
      for (const { c, stdin, run } of runs) {
        const what = `${c.entry} ${stdin.toString("utf8").slice(0, 300)}`;
        expect(run.signal, what).toBeNull();
        expect(run.code, what).toBe(0);
        expectNoCrash(c.entry, run, what);
      }
      for (const { file, event } of ENTRIES.filter((e) => isServed(e.file))) {
        const stdins = cases.filter((c) => c.entry === file).map((c) => build(w, c));
        const batch = await runServedBatch(hookDist(), event, stdins, env, { typed: true });
        expect(batch, event).toMatchObject({ code: 0, signal: null });
        const lines = batch.stderr.split("\n").filter(Boolean);
        expect(lines.length, event).toBeLessThanOrEqual(stdins.length);
        for (const line of lines) expect(line, event).toMatch(new RegExp(`^utility(?: ${event} hook)?: `));
        expect(batch.stderr, event).not.toMatch(/^\s+at |node:internal/m);
        for (const [i, stdout] of batch.stdouts.entries())
          expectNoCrash(file, { stdout, stderr: "" }, `${file} ${stdins[i]!.toString("utf8").slice(0, 300)}`);
      }
      expectDataWhole(w.box.data);
      const changed = treeDiff(outside, tree(w.box.root)).filter((c) => !c.startsWith("added data") && !c.startsWith("changed data"));
      expect(changed).toEqual([]);
    } finally {
      w.box.remove();
    }
  });
});

/** A JSON value with one node changed: a path picked by index, then dropped, replaced or retyped. */
function mutateJson(root: unknown, pick: number, op: number, value: unknown): unknown {
  const copy = structuredClone(root);
  const nodes: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach((child, i) => (nodes.push({ parent: node, key: i }), walk(child)));
    else if (node && typeof node === "object")
      for (const [k, child] of Object.entries(node)) {
        nodes.push({ parent: node as Record<string, unknown>, key: k });
        walk(child);
      }
  };
  walk(copy);
  if (nodes.length === 0) return value;
  const { parent, key } = nodes[pick % nodes.length]!;
  const old = (parent as Record<string | number, unknown>)[key];
  if (op % 4 === 0) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (op % 4 === 1) (parent as Record<string | number, unknown>)[key] = value;
  else if (op % 4 === 2)
    (parent as Record<string | number, unknown>)[key] =
      typeof old === "number" ? String(old) : typeof old === "string" ? Number(old) || -1 : old === null ? {} : null;
  else if (!Array.isArray(parent))
    (parent as Record<string, unknown>)[typeof value === "string" && value.length < 20 ? value : "extra"] = value;
  return copy;
}

describe("fuzz: mutated state files", () => {
  const RUNS = 1500;
  it(`${RUNS} seeded cases: every hook reads a corrupt state without a crash, a gated scope refuses, and whatever is written back is whole`, async () => {
    const w = await world("utility-fuzz-state-");
    try {
      const env = w.box.env();
      const file = join(w.box.data, "state", `${GATED}.json`);
      // A real state: the gated session after hooks of every kind (the calls' results come from the transcript's lines).
      for (const entry of ["subagent-start", "pre-tool-use", "pre-tool-use", "stop", "pre-compact", "session-end"] as const) {
        for (const base of w.bases(entry).slice(0, 2)) await runInProcess(entry, JSON.stringify(base), env);
      }
      const real = JSON.parse(readFileSync(file, "utf8")) as unknown;
      expect(SessionStateSchema.safeParse(real).success).toBe(true);
      let refusedForState = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ pick: fc.nat(), op: fc.nat(), value }), { minLength: 1, maxLength: 3 }),
          fc.constantFrom(...ENTRIES.map((e) => e.file)),
          fc.nat({ max: 1 }),
          async (mutations, entry, base) => {
            const corrupt = mutations.reduce((state, m) => mutateJson(state, m.pick, m.op, m.value), real);
            writeFileSync(file, JSON.stringify(corrupt));
            const out = await runInProcess(entry, JSON.stringify(w.bases(entry)[base]!), env, QUICK);
            expectNoCrash(entry, out, `${entry} with state ${JSON.stringify(corrupt).slice(0, 300)}`);
            if (out.stdout.includes("state cannot be read")) refusedForState++;
            // Whatever the hook wrote back (if anything) is a whole, valid state; an unreadable one is left as it was.
            const after = JSON.parse(readFileSync(file, "utf8")) as unknown;
            if (JSON.stringify(after) !== JSON.stringify(corrupt)) expect(SessionStateSchema.safeParse(after).success).toBe(true);
          },
        ),
        { seed: 0x57a7e, numRuns: RUNS, endOnFailure: true },
      );
      expect(refusedForState).toBeGreaterThan(50);
    } finally {
      w.box.remove();
    }
  });
});
