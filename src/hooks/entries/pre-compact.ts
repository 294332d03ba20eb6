// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { PreCompactInputSchema } from "../input.js";
import { preCompact } from "../pre-compact.js";
import { runHook } from "../run.js";

void runHook("PreCompact", PreCompactInputSchema, preCompact);
