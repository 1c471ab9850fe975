// The Trusted Types test page's module (tests/browser/strict.test.mjs serves it
// with `require-trusted-types-for 'script'; trusted-types citemark`): the
// package's entries and DOM helpers for page.evaluate() calls, plus a record
// of every CSP violation the page reports.
import * as citemark from "/pkg/src/index.js";
import { mountPatches, mountStream } from "/pkg/src/default/dom.js";

const violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.violatedDirective}: ${event.blockedURI} ${event.sample}`);
});

window.test = { citemark, mountPatches, mountStream, violations };
document.documentElement.dataset.ready = "1";
