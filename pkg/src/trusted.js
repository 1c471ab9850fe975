// Trusted Types for citemark's HTML (internal: not one of the package's
// entry points, so no user code can call it).
//
// On pages with `require-trusted-types-for 'script'`, `innerHTML` and
// `insertAdjacentHTML` take only `TrustedHTML`. With the option
// `trustedTypes: true`, citemark hands its HTML over as TrustedHTML made by
// one policy, named `citemark`, created on first use. The policy passes its
// input through unchanged: what makes it safe is that only citemark's own
// output reaches it. `render`'s html and a stream's tails are wrapped as they
// leave the WebAssembly instance; a stream's patches, whose `append` the DOM
// helpers must cut by `steps` (a TrustedHTML cannot be sliced), are frozen and
// remembered here as issued, and `citemark/dom` wraps their pieces only then.
// Where the browser has no Trusted Types (Node, older engines), the HTML
// stays a string.

/** The policy; `undefined` before first use, `null` where there are no Trusted Types. */
let policy;

function citemarkPolicy() {
  if (policy === undefined) {
    const factory = globalThis.trustedTypes;
    if (!factory || typeof factory.createPolicy !== "function") {
      policy = null;
    } else {
      try {
        policy = factory.createPolicy("citemark", { createHTML: (html) => html });
      } catch (e) {
        throw new Error(
          `citemark: cannot create the Trusted Types policy "citemark" (${e instanceof Error ? e.message : e}); ` +
            "allow it in the page's Content-Security-Policy: trusted-types citemark",
          { cause: e },
        );
      }
    }
  }
  return policy;
}

/** `html` (citemark's output) as TrustedHTML through the `citemark` policy; the string where there are no Trusted Types. */
export function trustedHTML(html) {
  const p = citemarkPolicy();
  return p ? p.createHTML(html) : html;
}

/** Whether `value` is a TrustedHTML (false where there are no Trusted Types). */
export function isTrustedHTML(value) {
  const factory = globalThis.trustedTypes;
  return Boolean(factory && typeof factory.isHTML === "function" && factory.isHTML(value));
}

/** The patches of streams created with `trustedTypes: true`. */
const issued = new WeakSet();

/** `patch`, from a stream created with `trustedTypes: true`: its tail as TrustedHTML, frozen, remembered as issued. */
export function issue(patch) {
  for (const step of patch.steps) Object.freeze(step);
  Object.freeze(patch.steps);
  if (patch.tail !== undefined) patch.tail = trustedHTML(patch.tail);
  issued.add(Object.freeze(patch));
  return patch;
}

/** Whether `patch` came, unchanged, from a stream created with `trustedTypes: true`. */
export function isIssued(patch) {
  return issued.has(patch);
}
