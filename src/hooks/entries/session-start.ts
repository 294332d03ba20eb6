import { sessionStartRoute } from "../routes/session-start.js";
import { runHook } from "../run.js";

void runHook("SessionStart", sessionStartRoute.schema, sessionStartRoute.handler);
