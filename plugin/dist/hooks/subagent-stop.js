"use strict";var o=require("./runtime.js");(0,o.runEntry)("SubagentStop");
