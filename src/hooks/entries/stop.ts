import { StopInputSchema } from "../input.js";
import { runHook } from "../run.js";
import { stopHook } from "../stop.js";

await runHook("Stop", StopInputSchema, (input, ctx) => stopHook(input, ctx, "Stop"));
