// Compiled by `tsc -p types-test` (never run): the declarations must accept
// what the README shows and reject what the crate rejects.
import { adapt, createStream, init, memoryBytes, ready, render, reset } from "citemark";
import type { Adapted, CitationIndex, Occurrence, Options, Patch, Source, SourceUse, Step, Stream, TailChange, TrustedHTML, TrustedStream } from "citemark";
import { render as renderLite } from "citemark/lite";
import * as asyncEntry from "citemark/async";
import * as liteAsync from "citemark/lite/async";
import type { Engine } from "citemark/lite/async";
import { adapt as adaptAlone } from "citemark/adapters";
import type { Adapted as AdaptedAlone } from "citemark/adapters";

const sources: Source[] = [
  { id: "call_q3", title: "Q3 revenue", href: "https://app.example/q/3" },
  { index: 2, title: "DACH", data: { page: 3, tags: ["a"], score: null } },
];
const options: Options = {
  sources,
  aliases: { old: "call_q3" },
  mode: "button",
  embedded: false,
  rawHtml: "escape",
  syntaxes: { markers: true, recovery: false },
  shortLinkPatterns: [{ template: "/-/ai/conversations/{conversation}/call/{call}", key: "call" }],
  autolinks: true,
  linkRel: null,
  linkTarget: "_blank",
  idPrefix: "msg-1-",
  images: "link",
};

const out = render("Down 8% <cite id=\"call_q3\">in Q3</cite> [2].", options);
const html: string = out.html;
const index: CitationIndex = out.citations;
const first: Occurrence | undefined = index.occurrences[0];
const ordinal: number | undefined = first?.ordinal;
const kind: "cite" | "index" | "shortlink" | "query" | undefined = first?.kind;
const used: SourceUse[] = index.sources.concat(index.uncited);
renderLite("plain", null);
render("no options");

const adapted: Adapted = adapt("gemini", { candidates: [] });
const again = render(adapted.markdown, { sources: adapted.sources, aliases: adapted.aliases });
const warned: string[] = adapted.warnings.map((w) => `${w.path}: ${w.message}`);

const stream: Stream = createStream({ mode: "icon" });
const patch = stream.push("Hello [1]");
const tail: string = patch.tail;
const deferred: Patch = stream.pushDeferred(" world\n\n");
const maybeTail: string | undefined = deferred.tail;
const steps: Step[] = patch.steps;
const units: number = steps.reduce((sum, step) => sum + ("open" in step ? step.open : "html" in step ? step.html : step.close), 0);
const rewound: boolean = patch.rewind === true && deferred.mark === true;
const shown: string = patch.append + patch.tail + stream.openEndTags();
const change: TailChange | undefined = stream.tailChange();
const changed: string = change === undefined ? "" : "insert" in change ? change.insert.slice(0, change.depth + change.before) : change.replace;
stream.setSources(sources);
stream.setSources(null);
const last = stream.finish();
const idx: CitationIndex = stream.citationIndex();
stream.free();

const trusted: TrustedHTML = render("*a*", { trustedTypes: true, mode: "icon" }).html;
const trustedStream: TrustedStream = createStream({ trustedTypes: true });
const trustedTail: TrustedHTML = trustedStream.push("a").tail;
const bytes: number = memoryBytes();
reset();

async function loaded(): Promise<void> {
  await ready;
  await init();
}

// citemark/adapters: adapt alone, as the entries have it.
const adaptedAlone: AdaptedAlone = adaptAlone("gemini", { candidates: [] });

// The asynchronous entries: the same API, awaited first.
async function loadedAsync(): Promise<string> {
  await asyncEntry.ready;
  await liteAsync.init();
  const stream: Stream = liteAsync.createStream({ sources });
  const engine: Engine = liteAsync.engine;
  await engine.ready;
  return asyncEntry.render("x [1]", options).html + stream.finish().append;
}

// @ts-expect-error: an unknown mode is rejected
render("x", { mode: "fancy" });
// @ts-expect-error: images are shown, linked or their alt text
render("x", { images: "hide" });
// @ts-expect-error: unknown option names are rejected
render("x", { mod: "link" });
// @ts-expect-error: `index` is a number
render("x", { sources: [{ index: "1" }] });
// @ts-expect-error: the unsafe raw-HTML policy is not reachable
render("x", { rawHtml: "dangerouslyPassThrough" });
// @ts-expect-error: unknown provider
adapt("bard", {});
// @ts-expect-error: a step is open, html or close
const badStep: Step = { text: 3 };

// @ts-expect-error: a TrustedHTML is not a string
const notString: string = render("*a*", { trustedTypes: true }).html;
// @ts-expect-error: a trusted stream's patches are frozen
trustedStream.push("b").append = "<img src=x onerror=alert(1)>";

export { changed, trusted, trustedTail, bytes, notString, warned, html, ordinal, kind, used, again, tail, maybeTail, units, rewound, shown, badStep, last, idx, loaded, loadedAsync, adaptedAlone };
