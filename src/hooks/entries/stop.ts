import { stopRoute } from "../routes/stop.js";
import { runHook } from "../run.js";

void runHook("Stop", stopRoute.schema, stopRoute.handler);
