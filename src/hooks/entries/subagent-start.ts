// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { SubagentStartInputSchema } from "../input.js";
import { subagentStart } from "../subagent-start.js";
import { runHook } from "../run.js";

void runHook("SubagentStart", SubagentStartInputSchema, subagentStart);
