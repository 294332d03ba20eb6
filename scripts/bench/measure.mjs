// Wall-clock timing of whole processes, interleaved so that drift (other
// load, CPU frequency, page cache) hits every case alike. Plain Node: no
// hyperfine, so any CI machine can run it.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * CPU time (user + system, ms) of this process's finished children, from
 * /proc on Linux; undefined elsewhere. A check on the wall times when other
 * work shares the machine: CPU time hardly moves with load.
 */
export function childCpuMs() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux Node supports. */
const CLOCK_TICKS = 100;

function timed(started, cpuBefore) {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childCpuMs();
  return { ms, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

/**
 * A case: `run()` starts the process(es) and returns the elapsed milliseconds
 * and the children's CPU time;
 * `prepare()` (untimed) runs before each measured run; `check()` (untimed)
 * after each one, throwing when the run did not do what it should.
 */
export function processCase({ name, args, input = "", env = process.env, prepare, check, cwd }) {
  return {
    name,
    prepare,
    run() {
      const cpu = childCpuMs();
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, {
        input,
        env,
        cwd,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      });
      const time = timed(started, cpu);
      if (result.error) throw result.error;
      check?.(result);
      return time;
    },
  };
}

/** Starts `count` processes at once and waits for all; the time is until the last one exits. */
export function parallelCase({ name, count, argsFor, inputFor, env = process.env, prepare, check }) {
  return {
    name,
    prepare,
    async run() {
      const cpu = childCpuMs();
      const started = process.hrtime.bigint();
      const results = await Promise.all(
        Array.from(
          { length: count },
          (_, i) =>
            new Promise((resolve, reject) => {
              const child = spawn(process.execPath, argsFor(i), { env, stdio: ["pipe", "pipe", "pipe"] });
              let stdout = "";
              let stderr = "";
              child.stdout.on("data", (d) => (stdout += d));
              child.stderr.on("data", (d) => (stderr += d));
              child.on("error", reject);
              child.on("close", (status) => resolve({ status, stdout, stderr }));
              child.stdin.on("error", () => {}); // a process that exits without reading its input (node -e 0)
              child.stdin.end(inputFor(i));
            }),
        ),
      );
      const time = timed(started, cpu);
      check?.(results);
      return time;
    },
  };
}

/**
 * Runs every case `runs` times (a case's own `runs` when it has one), round
 * robin in a shuffled order each round; `warmup` rounds are not kept.
 */
export async function measure(cases, { runs, warmup = 1, onRound } = {}) {
  const samples = new Map(cases.map((c) => [c.name, { ms: [], cpuMs: [] }]));
  const rounds = Math.max(...cases.map((c) => c.runs ?? runs));
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < warmup + rounds; round++) {
    const order = cases.filter((c) => round < warmup || samples.get(c.name).ms.length < (c.runs ?? runs));
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const c of order) {
      await c.prepare?.();
      const { ms, cpuMs } = await c.run();
      if (round >= warmup) {
        samples.get(c.name).ms.push(ms);
        if (cpuMs !== undefined) samples.get(c.name).cpuMs.push(cpuMs);
      }
    }
    if (round >= warmup) onRound?.(round + 1 - warmup, rounds);
  }
  return samples;
}

/** Median, min and max of the wall times; the mean CPU time (whole clock ticks per run are too coarse for a median). */
export function summarize({ ms, cpuMs }) {
  const sorted = [...ms].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const cpuMean = cpuMs.length === ms.length && ms.length > 0 ? cpuMs.reduce((a, b) => a + b, 0) / cpuMs.length : undefined;
  return { runs: sorted.length, median, min: sorted[0], max: sorted[sorted.length - 1], cpuMean };
}
