import { subagentStopRoute } from "../routes/subagent-stop.js";
import { runHook } from "../run.js";

void runHook("SubagentStop", subagentStopRoute.schema, subagentStopRoute.handler);
