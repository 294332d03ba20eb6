// PreToolUse in its own process, from the sources (as a hook server answers it), with a
// state store that pauses for HELD_MS milliseconds while it holds the lock:
// the test kills it there. The pause is injected here; the product has none.
import { processContext } from "../../../src/hooks/context.js";
import { PreToolUseInputSchema } from "../../../src/hooks/input.js";
import { preToolUse } from "../../../src/hooks/pre-tool-use.js";
import { runHook } from "../../../src/hooks/run.js";
import { dataDir } from "../../../src/state/paths.js";
import { DEFAULT_LOCK } from "../../../src/state/lock-file.js";
import { FileStateStore } from "../../../src/state/store.js";

const pauseMs = Number(process.env.HELD_MS);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

void runHook("PreToolUse", PreToolUseInputSchema, preToolUse, undefined, (env) => ({
  ...processContext(env),
  store: new FileStateStore(dataDir(env), DEFAULT_LOCK, { held: () => void Atomics.wait(sleeper, 0, 0, pauseMs) }),
}));
