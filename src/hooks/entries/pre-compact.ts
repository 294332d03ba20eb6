import { preCompact } from "../pre-compact.js";
import { PreCompactInputSchema } from "../input.js";
import { runHook } from "../run.js";

void runHook("PreCompact", PreCompactInputSchema, preCompact);
