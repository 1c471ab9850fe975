// The XSS page's module: inserts rendered documents with innerHTML, hydrates
// them with hostile resolutions, provokes every handler a surviving
// attribute could hold, and reports what ran and what the DOM holds.
import { hydrate } from "/pkg/src/hydrate.js";

// Every CSP violation (the page's policy is report-only, see server.mjs):
// proof of an inline script, handler, javascript: URL or eval that ran.
const violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const doc = event.target instanceof Element ? event.target.closest("[data-doc]") : null;
  violations.push({
    doc: doc ? Number(doc.dataset.doc) : null,
    text: `${event.effectiveDirective} ${event.blockedURI} ${event.sample}`.slice(0, 200),
  });
});

// Clicks go on, so a javascript: link would run; any other link would take
// the page away (to a real URL, or to about:blank#blocked for a bad one), so
// its click is stopped first (capture phase). The audit below judges URLs.
window.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
    if (link && link.protocol !== "javascript:") event.preventDefault();
  },
  true,
);

const SAFE_PROTOCOLS = ["http:", "https:", "mailto:"];
const FORBIDDEN_ELEMENTS = new Set([
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "style",
  "form", "base", "link", "meta", "template", "noscript", "portal", "video", "audio",
]);
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "srcset", "ping"];
// Events a surviving handler attribute could wait for; dispatched on every element.
const EVENTS = [
  "click", "dblclick", "mousedown", "mouseup", "mouseover", "mouseenter", "mousemove", "mouseout",
  "pointerdown", "pointerover", "focus", "focusin", "blur", "keydown", "keyup", "input", "change",
  "submit", "toggle", "load", "error", "animationstart", "animationend", "transitionend",
  "scroll", "wheel", "copy", "paste", "drag", "drop", "contextmenu", "beforetoggle",
];

/** What the live DOM of one document holds that it must not. */
function audit(container) {
  const found = [];
  for (const element of container.querySelectorAll("*")) {
    const tag = element.localName;
    if (FORBIDDEN_ELEMENTS.has(tag)) found.push(`<${tag}> element`);
    for (const name of element.getAttributeNames()) {
      const value = element.getAttribute(name);
      if (name.startsWith("on") || name === "style" || name === "srcdoc") {
        found.push(`<${tag} ${name}> attribute`);
      } else if (URL_ATTRIBUTES.includes(name)) {
        // srcset holds several URLs; each is read as the browser reads it.
        const urls = name === "srcset" ? value.split(",").map((u) => u.trim().split(/\s+/)[0]) : [value];
        for (const url of urls) {
          let protocol;
          try {
            protocol = new URL(url, document.baseURI).protocol;
          } catch {
            continue; // the browser cannot resolve it either: nothing loads
          }
          if (!SAFE_PROTOCOLS.includes(protocol)) found.push(`<${tag} ${name}="${url.slice(0, 60)}"> (${protocol})`);
        }
      }
    }
  }
  return found;
}

/** Resolves when every image has loaded or failed (or after `ms`). */
function imagesSettled(root, ms) {
  const pending = [...root.querySelectorAll("img")].filter((img) => !img.complete);
  const each = pending.map((img) => new Promise((done) => {
    img.addEventListener("load", done, { once: true });
    img.addEventListener("error", done, { once: true });
  }));
  return Promise.race([Promise.all(each), new Promise((done) => setTimeout(done, ms))]);
}

const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));

/**
 * docs: [{html, citations}]. Resolves to {hits, violations, audits, activations}
 * with hits/violations attributed to a document where the browser tells which.
 */
window.runBatch = async (docs) => {
  const root = document.getElementById("root");
  let activations = 0;
  const handles = docs.map((doc, i) => {
    const container = document.createElement("div");
    container.dataset.doc = String(i);
    root.append(container);
    container.innerHTML = doc.html;
    return hydrate(container, doc.citations, {
      onActivate(citation) {
        activations += 1;
        // What a tooltip would show, written the safe way a host should.
        container.title = `${citation.source?.title ?? ""} ${citation.source?.excerpt ?? ""}`;
      },
      // A host resolution as hostile as the payloads: must never become a live URL.
      resolve: () => ({ href: "javascript:window.xss='resolve'", title: "\"><img src=x onerror=alert('resolve')>" }),
    });
  });
  await imagesSettled(root, 5000);
  for (const element of root.querySelectorAll("*")) {
    for (const type of EVENTS) {
      element.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
    }
    if (element.localName === "a" || element.localName === "button" || element.localName === "summary") element.click();
  }
  await frames();
  await new Promise((done) => setTimeout(done, 50));
  await frames();
  const audits = [...root.children].map((container) => audit(container));
  for (const handle of handles) handle.destroy();
  return { hits: [...window.__xss], violations, audits, activations };
};
document.documentElement.dataset.ready = "1";
