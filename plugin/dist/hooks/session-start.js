"use strict";require("./runtime.js").runEntry("SessionStart");
