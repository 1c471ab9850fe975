// citemark/svelte: the hydration core as a Svelte action (`citations`), and
// a streamed message as one (`citemark`).
//
//   <div use:citations={{ citations, onActivate, resolve }}>{@html html}</div>
//   <div use:citemark={{ markdown, sources, mode: "icon", streaming, onActivate, icon: Icon }}></div>
//
// This module is `citemark/svelte/core`: `citemark` takes its engine as
// `api` (required) and imports none; `citemark/svelte` (src/default/svelte.js)
// defaults it to the default entry.
//
// An action is just (node, params) => {update, destroy}; `mount` and
// `unmount` (Svelte 5) put the `icon` component into each placeholder. They
// are looked up on the module's namespace when used, so that Svelte 4 apps
// using only `citations` still build.

import * as svelte from "svelte";
import { citationOf, hydrate } from "./hydrate.js";
import { mountMessage } from "./message.js";

const unmount = (instance) => svelte.unmount(instance);

export function citations(node, params) {
  const handle = hydrate(node, params.citations, params);
  return {
    // Svelte calls this when the parameters change (a new index, new handlers).
    update(next) {
      handle.update(next.citations, next);
    },
    destroy() {
      handle.destroy();
    },
  };
}

/** `options` with `sources` and `mode` when given. */
function optionsOf({ options, sources, mode }) {
  if (sources === undefined && mode === undefined) return options;
  return { ...options, ...(sources === undefined ? {} : { sources }), ...(mode === undefined ? {} : { mode }) };
}

/** What an icon was given, as text: a new index gives new objects for the same citations. */
function describe(citation) {
  if (!citation?.occurrence) return "";
  return JSON.stringify([citation.occurrence, citation.source]);
}

/**
 * Streams the accumulated text `params.markdown` into `node`
 * (citemark/message, with the engine `params.api`: only a new suffix is
 * pushed, other text starts over, at most one repaint per animation frame,
 * finished when `streaming` is false), hydrates its citations (`onActivate`, `resolve`) and mounts
 * `params.icon` into each icon placeholder, tail included, with a
 * `citation` prop.
 */
export function citemark(node, params) {
  let current = params;
  /** The icon mounted in each placeholder, and the citation it was given. */
  let icons = new Map();
  const handlers = () => ({ onActivate: current.onActivate, resolve: current.resolve });
  let hydrated = null;

  function mountIcons({ citations: index, slots }) {
    const next = new Map();
    for (const slot of slots) {
      const mounted = icons.get(slot);
      // The same index and placeholder: the same citation (most frames only repaint the tail).
      if (mounted && mounted.icon === current.icon && mounted.index === index) {
        next.set(slot, mounted);
        icons.delete(slot);
        continue;
      }
      const citation = citationOf(slot, index);
      const seen = describe(citation);
      if (mounted && mounted.icon === current.icon && mounted.seen === seen) {
        mounted.index = index;
        next.set(slot, mounted);
        icons.delete(slot);
      } else if (current.icon) {
        if (mounted) unmount(mounted.instance);
        icons.delete(slot);
        if (typeof svelte.mount !== "function") throw new Error("citemark/svelte: `icon` needs Svelte 5 (its mount())");
        const instance = svelte.mount(current.icon, { target: slot, props: { citation } });
        next.set(slot, { instance, icon: current.icon, seen, index });
      }
    }
    // Placeholders gone from the message (a tail repainted, a restart).
    for (const { instance } of icons.values()) unmount(instance);
    icons = next;
  }

  function onChange(state) {
    hydrated?.update(state.citations, handlers());
    mountIcons(state);
  }

  const message = mountMessage(node, { api: params.api, onChange });
  hydrated = hydrate(node, message.citations(), handlers());
  message.update({ markdown: params.markdown ?? "", options: optionsOf(params), streaming: params.streaming });

  return {
    update(next) {
      const iconChanged = next.icon !== current.icon;
      const handlersChanged = next.onActivate !== current.onActivate || next.resolve !== current.resolve;
      current = next;
      // Most updates are the text alone: re-hydrating would offer every unresolved citation to resolve() again.
      if (handlersChanged) hydrated.update(message.citations(), handlers());
      message.update({ markdown: next.markdown ?? "", options: optionsOf(next), streaming: next.streaming });
      if (iconChanged) mountIcons({ citations: message.citations(), slots: message.slots() });
    },
    destroy() {
      message.destroy();
      hydrated.destroy();
      for (const { instance } of icons.values()) unmount(instance);
      icons = new Map();
    },
  };
}
