// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { StopInputSchema } from "../input.js";
import { runHook } from "../run.js";
import { stopHook } from "../stop.js";

void runHook("SubagentStop", StopInputSchema, (input, ctx) => stopHook(input, ctx, "SubagentStop"));
