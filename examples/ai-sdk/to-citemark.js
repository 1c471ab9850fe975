// An AI SDK (`ai`, v5) chat message as citemark's input: `useChat` hands out
// `UIMessage`s whose `parts` hold the answer's text (`text` parts) and its
// sources (`source-url` parts from web search, `source-document` parts from
// files), appended as they stream. `toCitemark(message)` returns the
// `markdown` and `sources` a <CitemarkMessage/> (citemark/react) or the
// `citemark` Svelte action takes:
//
//   const { markdown, sources } = toCitemark(message);
//   <CitemarkMessage markdown={markdown} sources={sources} streaming={status === "streaming"} />
//
// The i-th source part is source `[i]` (providers such as Perplexity number
// their citations in the order they list the sources) and source id
// `sourceId` (`<cite id="…">`, short links). Only the message shapes are
// used: no `ai` import, no network.

/**
 * `{markdown, sources}` of a `UIMessage` (`{role, parts}`): the text parts
 * joined by blank lines, in order (so that while the last one streams, each
 * call's markdown extends the previous one's), and one citemark source per
 * distinct `sourceId`, numbered from 1 in the order they came.
 */
export function toCitemark(message) {
  const texts = [];
  const sources = [];
  const seen = new Set();
  for (const part of message?.parts ?? []) {
    if (part?.type === "text" && typeof part.text === "string") {
      texts.push(part.text);
    } else if ((part?.type === "source-url" || part?.type === "source-document") && !seen.has(part.sourceId)) {
      seen.add(part.sourceId);
      sources.push(sourceOf(part, sources.length + 1));
    }
  }
  return { markdown: texts.join("\n\n"), sources };
}

/** A citemark `Source` for a source part; `index` is its `[n]`. */
function sourceOf(part, index) {
  const source = { id: String(part.sourceId), index };
  if (typeof part.title === "string") source.title = part.title;
  if (part.type === "source-url") {
    // citemark writes only http(s) and mailto hrefs; others are left out of its HTML.
    if (typeof part.url === "string") source.href = part.url;
    if (source.title === undefined && typeof part.url === "string") source.title = part.url;
  } else {
    const data = {};
    if (typeof part.mediaType === "string") data.mediaType = part.mediaType;
    if (typeof part.filename === "string") data.filename = part.filename;
    source.data = data;
    if (source.title === undefined && typeof part.filename === "string") source.title = part.filename;
  }
  return source;
}
