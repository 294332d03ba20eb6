import { describe } from "vitest";
import { eachModuleLoads } from "../support/module-load.js";

describe("every transcript module loads", () => eachModuleLoads("transcript"));
