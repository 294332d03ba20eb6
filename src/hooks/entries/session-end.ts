// One hook per process: only its own handler is bundled (start-up time, SPEC §11).
import { SessionEndInputSchema } from "../input.js";
import { sessionEnd } from "../session-end.js";
import { runHook } from "../run.js";

void runHook("SessionEnd", SessionEndInputSchema, sessionEnd);
