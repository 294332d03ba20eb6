"use strict";require("./runtime.js").runEntry("SessionEnd");
