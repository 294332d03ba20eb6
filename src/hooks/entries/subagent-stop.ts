import { runRoute } from "../routes.js";

void runRoute("SubagentStop");
