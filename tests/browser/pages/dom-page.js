// The citemark/dom test page's module: the entry under test and the package's
// render for page.evaluate() calls (served from pkg/src and pkg/dist as built).
import * as citemark from "/pkg/src/index.js";
import * as lite from "/pkg/src/lite.js";
import { mountPatches, mountStream } from "/pkg/src/default/dom.js";

window.test = {
  citemark,
  lite,
  mountPatches,
  mountStream,
  /** `html` as this browser parses and serializes it (what innerHTML of it reads back). */
  normalize: (html) => Object.assign(document.createElement("template"), { innerHTML: html }).innerHTML,
};
document.documentElement.dataset.ready = "1";
