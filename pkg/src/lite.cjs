// CommonJS entry: the ES module itself, through Node's require(esm) (Node
// >= 20.19 / 22.12; bundlers do the same). One module instance and one
// WebAssembly payload serve both import and require.
"use strict";
module.exports = require("./lite.js");
