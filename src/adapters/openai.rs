//! OpenAI responses: the Responses API (`output[]` message items whose
//! `output_text` parts carry `annotations`) and, for the same annotations in
//! the older shape, Chat Completions (`choices[0].message.annotations`).
//!
//! - `url_citation` (`start_index`, `end_index`, `url`, `title`): web search.
//!   In recorded responses the annotated span is the model's own inline link,
//!   usually wrapped in parentheses: `([example.com](https://example.com/?utm_source=openai))`.
//!   Such a span (with its parentheses) is **replaced** by a `[n]` marker; a
//!   span of plain prose keeps its text and gets the marker after it.
//! - `file_citation` (`file_id`, `filename`, `index`) and
//!   `container_file_citation` (`file_id`, `filename`, `end_index`): a marker
//!   at that position.
//! - `file_path` annotations point at generated files, not sources: ignored.
//!
//! **Indices count Unicode code points** (Python string indices). OpenAI's
//! reference does not say; clients that consume them treat them as character
//! offsets (maximhq/bifrost#4345 converts Gemini's byte offsets to
//! characters to produce OpenAI-style `url_citation`s; posit-dev/chatlas#388
//! pins, against recorded responses, that web-search spans locate the inline
//! link rather than the claim). JavaScript strings count UTF-16 units, which
//! drift by one per astral character (emoji) before the span; as a guard,
//! when the code-point span of a `url_citation` is not exactly an inline link
//! to its URL but the UTF-16 reading is, the UTF-16 reading is used.
//!
//! Sources are numbered in order of first citation; the same URL (ignoring
//! the `utm_source=openai` tag, which is also removed from `href`) or the
//! same file is one source. Message items are joined with a blank line.
//!
//! # Example
//! ```
//! use citemark::adapters::openai;
//! use serde_json::json;
//!
//! let text = "Rust 1.80 is out ([rust-lang.org](https://blog.rust-lang.org/?utm_source=openai)).";
//! let response = json!({"output": [{"type": "message", "content": [{
//!     "type": "output_text", "text": text,
//!     "annotations": [{"type": "url_citation", "start_index": 17, "end_index": 81,
//!                      "url": "https://blog.rust-lang.org/?utm_source=openai", "title": "Rust Blog"}]
//! }]}]});
//! let adapted = openai::adapt(&response);
//! assert_eq!(adapted.markdown, "Rust 1.80 is out[1].");
//! assert_eq!(adapted.sources[0].href.as_deref(), Some("https://blog.rust-lang.org/"));
//! ```

use std::ops::Range;

use serde_json::{Map, Value};

use super::insert::{self, Edit};
use super::json::{
    array_field, as_index, element_path, expect_object, object, string_field, type_name, ROOT,
};
use super::Adapted;
use crate::source::Source;

/// Turns an OpenAI response into markdown with markers and numbered sources.
///
/// Never fails: unusable items and annotations are skipped, and each problem
/// is reported in [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let Some(body) = expect_object(
        response,
        ROOT,
        "a Responses or Chat Completions response",
        &mut adapted,
    ) else {
        return adapted;
    };
    let mut sources = SourceList::default();
    let mut texts = Vec::new();
    if body.contains_key("output") {
        for (i, item) in array_field(body, "output", ROOT, &mut adapted)
            .iter()
            .enumerate()
        {
            let path = element_path("output", i);
            if let Some(text) = message_text(item, &path, &mut sources, &mut adapted) {
                texts.push(text);
            }
        }
    } else if let Some(message) = chat_message(body, &mut adapted) {
        let path = "choices[0].message";
        let text = match message.get("content") {
            Some(Value::String(text)) => text.clone(),
            _ => {
                adapted.warn(path, "no string `content`: the answer is empty");
                String::new()
            }
        };
        let annotations = array_field(message, "annotations", path, &mut adapted);
        let path = format!("{path}.annotations");
        texts.push(annotated(
            &text,
            annotations,
            &path,
            &mut sources,
            &mut adapted,
        ));
    }
    adapted.markdown = texts.join("\n\n");
    adapted.sources = sources.list;
    adapted
}

/// Sources in order of first citation, found again by URL or file id.
#[derive(Default)]
struct SourceList {
    list: Vec<Source>,
}

impl SourceList {
    /// The number of the source with `key`, adding it when new.
    fn number(&mut self, key: &str, make: impl FnOnce() -> Source) -> u32 {
        let position = match self.list.iter().position(|s| s.id.as_deref() == Some(key)) {
            Some(position) => position,
            None => {
                let mut source = make();
                source.id = Some(key.to_owned());
                source.index = u32::try_from(self.list.len() + 1).ok();
                self.list.push(source);
                self.list.len() - 1
            }
        };
        u32::try_from(position + 1).unwrap_or(u32::MAX)
    }
}

fn chat_message<'a>(
    body: &'a Map<String, Value>,
    adapted: &mut Adapted,
) -> Option<&'a Map<String, Value>> {
    let choices = array_field(body, "choices", ROOT, adapted);
    let Some(choice) = choices.first().and_then(Value::as_object) else {
        adapted.warn(
            ROOT,
            "neither `output` (Responses API) nor `choices` (Chat Completions): no answer",
        );
        return None;
    };
    match choice.get("message") {
        Some(message) => expect_object(message, "choices[0].message", "a message", adapted),
        None => {
            adapted.warn("choices[0]", "no `message`: no answer");
            None
        }
    }
}

/// The text of one `output[]` item, when it is a message.
fn message_text(
    item: &Value,
    path: &str,
    sources: &mut SourceList,
    adapted: &mut Adapted,
) -> Option<String> {
    let item = expect_object(item, path, "an output item", adapted)?;
    // Reasoning, web_search_call, function_call… items carry no answer text.
    if item.get("type").and_then(Value::as_str) != Some("message") {
        return None;
    }
    let mut text = String::new();
    for (i, part) in array_field(item, "content", path, adapted)
        .iter()
        .enumerate()
    {
        let part_path = format!("{path}.content[{i}]");
        let Some(part) = expect_object(part, &part_path, "a content part", adapted) else {
            continue;
        };
        if part.get("type").and_then(Value::as_str) != Some("output_text") {
            continue;
        }
        let part_text = string_field(part, "text", &part_path, adapted).unwrap_or_default();
        let annotations = array_field(part, "annotations", &part_path, adapted);
        let annotations_path = format!("{part_path}.annotations");
        text.push_str(&annotated(
            &part_text,
            annotations,
            &annotations_path,
            sources,
            adapted,
        ));
    }
    Some(text)
}

/// `text` with a marker for each annotation.
fn annotated(
    text: &str,
    annotations: &[Value],
    path: &str,
    sources: &mut SourceList,
    adapted: &mut Adapted,
) -> String {
    let mut edits = Vec::new();
    for (i, annotation) in annotations.iter().enumerate() {
        let path = format!("{path}[{i}]");
        if let Some(edit) = annotation_edit(text, annotation, &path, sources, adapted) {
            edits.push(edit);
        }
    }
    insert::apply(text, edits)
}

fn annotation_edit(
    text: &str,
    annotation: &Value,
    path: &str,
    sources: &mut SourceList,
    adapted: &mut Adapted,
) -> Option<Edit> {
    let annotation = expect_object(annotation, path, "an annotation", adapted)?;
    let kind = annotation
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // Chat Completions nests the fields: {"type": "url_citation", "url_citation": {…}}.
    let fields = match annotation.get(kind) {
        Some(Value::Object(inner)) => inner,
        _ => annotation,
    };
    match kind {
        "url_citation" => url_citation(text, fields, path, sources, adapted),
        "file_citation" | "container_file_citation" => {
            let key = ["index", "end_index"]
                .iter()
                .find_map(|k| fields.get(*k).and_then(as_index));
            let Some(at) = key.and_then(|n| code_point_offset(text, n)) else {
                adapted.warn(path, "no position inside the text: dropped");
                return None;
            };
            let Some(file_id) = string_field(fields, "file_id", path, adapted) else {
                adapted.warn(path, "no `file_id`: dropped");
                return None;
            };
            let filename = string_field(fields, "filename", path, adapted);
            let number = sources.number(&file_id, || Source {
                title: filename.clone(),
                data: object(vec![("kind", kind.into())]),
                ..Source::default()
            });
            Some(Edit::insert(at, vec![number]))
        }
        "file_path" => None,
        other => {
            let shown = if other.is_empty() {
                type_name(annotation.get("type").unwrap_or(&Value::Null))
            } else {
                other
            };
            adapted.warn(path, format!("unknown annotation type {shown:?}: dropped"));
            None
        }
    }
}

fn url_citation(
    text: &str,
    fields: &Map<String, Value>,
    path: &str,
    sources: &mut SourceList,
    adapted: &mut Adapted,
) -> Option<Edit> {
    let Some(url) = string_field(fields, "url", path, adapted) else {
        adapted.warn(path, "no `url`: dropped");
        return None;
    };
    let (Some(start), Some(end)) = (
        fields.get("start_index").and_then(as_index),
        fields.get("end_index").and_then(as_index),
    ) else {
        adapted.warn(path, "no `start_index`/`end_index`: dropped");
        return None;
    };
    let clean = without_openai_tag(&url);
    let Some(span) = locate_span(text, start, end, &url) else {
        adapted.warn(
            path,
            format!("span {start}..{end} is outside the text: dropped"),
        );
        return None;
    };
    let title = string_field(fields, "title", path, adapted);
    let number = sources.number(&clean, || Source {
        title: title.clone(),
        href: Some(clean.clone()),
        ..Source::default()
    });
    let spanned = &text[span.clone()];
    if spanned.contains("](") || spanned.contains(&clean) {
        Some(Edit {
            range: widen_to_parentheses(text, span),
            numbers: vec![number],
        })
    } else {
        Some(Edit::insert(span.end, vec![number]))
    }
}

/// The byte range of a code-point span, or of the UTF-16 span when only
/// that one is exactly an inline link to `url` (see the module docs).
fn locate_span(text: &str, start: usize, end: usize, url: &str) -> Option<Range<usize>> {
    let by_code_points = Some(code_point_offset(text, start)?..code_point_offset(text, end)?)
        .filter(|r| r.start <= r.end);
    let host = url
        .split("://")
        .nth(1)
        .and_then(|rest| rest.split(['/', '?']).next())
        .unwrap_or(url);
    // The model's inline link, exactly: `[site](url)` or `([site](url))`.
    let holds_url = |r: &Range<usize>| {
        let spanned = &text[r.clone()];
        spanned.starts_with(['[', '(']) && spanned.ends_with(')') && spanned.contains(host)
    };
    match by_code_points {
        Some(r) if holds_url(&r) => Some(r),
        by_code_points => {
            let by_utf16 = utf16_offset(text, start)
                .zip(utf16_offset(text, end))
                .map(|(s, e)| s..e);
            by_utf16
                .filter(|r| r.start <= r.end && holds_url(r))
                .or(by_code_points)
        }
    }
}

/// The byte offset of code point `n`, if the text has that many.
fn code_point_offset(text: &str, n: usize) -> Option<usize> {
    text.char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .nth(n)
}

/// The byte offset of UTF-16 unit `n`, if it is a character boundary.
fn utf16_offset(text: &str, n: usize) -> Option<usize> {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units == n {
            return Some(i);
        }
        units += c.len_utf16();
    }
    (units == n).then_some(text.len())
}

/// `span` grown over the parentheses and the space the model wrapped its
/// inline link in: ` ([site](url))` → the whole of it.
fn widen_to_parentheses(text: &str, span: Range<usize>) -> Range<usize> {
    let before = &text[..span.start];
    let after = &text[span.end..];
    let (start, end) = match (before.strip_suffix('('), after.strip_prefix(')')) {
        (Some(open), Some(_)) => (open.len(), span.end + 1),
        _ => (span.start, span.end),
    };
    let start = text[..start].trim_end_matches(' ').len();
    start..end
}

/// `url` without the `utm_source=openai` query parameter web search adds.
fn without_openai_tag(url: &str) -> String {
    let Some((base, query)) = url.split_once('?') else {
        return url.to_owned();
    };
    let (query, fragment) = match query.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (query, None),
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| *p != "utm_source=openai")
        .collect();
    let mut clean = base.to_owned();
    if !kept.is_empty() && kept != [""] {
        clean.push('?');
        clean.push_str(&kept.join("&"));
    }
    if let Some(fragment) = fragment {
        clean.push('#');
        clean.push_str(fragment);
    }
    clean
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn responses(text: &str, annotations: Value) -> Value {
        json!({"id": "resp_1", "object": "response", "output": [
            {"type": "web_search_call", "id": "ws_1", "status": "completed"},
            {"type": "message", "id": "msg_1", "role": "assistant", "content": [
                {"type": "output_text", "text": text, "annotations": annotations}
            ]}
        ]})
    }

    fn url_citation(start: usize, end: usize, url: &str, title: &str) -> Value {
        json!({"type": "url_citation", "start_index": start, "end_index": end, "url": url, "title": title})
    }

    /// Code-point offsets of `needle` in `text`, as the API reports them.
    fn span_of(text: &str, needle: &str) -> (usize, usize) {
        let byte = text.find(needle).expect("needle in text");
        let start = text[..byte].chars().count();
        (start, start + needle.chars().count())
    }

    #[test]
    fn emoji_before_the_citation_counts_one_code_point() {
        let link = "([nasa.gov](https://www.nasa.gov/artemis?utm_source=openai))";
        let text = format!("🚀 Artemis II flies crewed in 2026 {link}. Then 🌕 landing.");
        let (start, end) = span_of(&text, link);
        assert_eq!(
            start, 34,
            "one code point for the emoji, not two UTF-16 units"
        );
        let adapted = adapt(&responses(
            &text,
            json!([url_citation(
                start,
                end,
                "https://www.nasa.gov/artemis?utm_source=openai",
                "Artemis II"
            )]),
        ));
        assert_eq!(
            adapted.markdown,
            "🚀 Artemis II flies crewed in 2026[1]. Then 🌕 landing."
        );
        assert_eq!(
            adapted.sources[0].href.as_deref(),
            Some("https://www.nasa.gov/artemis")
        );
        assert_eq!(adapted.sources[0].title.as_deref(), Some("Artemis II"));
        assert_eq!(adapted.warnings, []);
    }

    #[test]
    fn utf16_offsets_are_recognised_by_the_url_they_cover() {
        let link = "[nasa.gov](https://www.nasa.gov/)";
        let text = format!("🚀🚀 Launch {link} today.");
        let byte = text.find(link).expect("link");
        let start: usize = text[..byte].encode_utf16().count();
        let end = start + link.encode_utf16().count();
        let adapted = adapt(&responses(
            &text,
            json!([url_citation(start, end, "https://www.nasa.gov/", "NASA")]),
        ));
        assert_eq!(adapted.markdown, "🚀🚀 Launch[1] today.");
    }

    #[test]
    fn prose_spans_keep_their_text_and_the_same_url_is_one_source() {
        let text = "Sales rose 8%. Costs fell.";
        let (a, b) = span_of(text, "Sales rose 8%.");
        let (c, d) = span_of(text, "Costs fell.");
        let adapted = adapt(&responses(
            text,
            json!([
                url_citation(a, b, "https://news.example/q3?utm_source=openai", "Q3"),
                url_citation(c, d, "https://news.example/q3", "Q3"),
                {"type": "file_citation", "file_id": "file-abc", "filename": "q3.pdf", "index": d}
            ]),
        ));
        assert_eq!(adapted.markdown, "Sales rose 8%.[1] Costs fell.[1, 2]");
        assert_eq!(adapted.sources.len(), 2);
        assert_eq!(adapted.sources[1].id.as_deref(), Some("file-abc"));
        assert_eq!(adapted.sources[1].title.as_deref(), Some("q3.pdf"));
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert_eq!(out.citations.occurrences.len(), 3);
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
    }

    #[test]
    fn chat_completions_annotations_are_nested() {
        let text = "Paris ([wikipedia.org](https://en.wikipedia.org/wiki/Paris)).";
        let (start, end) = span_of(text, "[wikipedia.org](https://en.wikipedia.org/wiki/Paris)");
        let response = json!({"choices": [{"message": {"role": "assistant", "content": text, "annotations": [
            {"type": "url_citation", "url_citation": {"start_index": start, "end_index": end,
             "url": "https://en.wikipedia.org/wiki/Paris", "title": "Paris"}}
        ]}}]});
        let adapted = adapt(&response);
        assert_eq!(adapted.markdown, "Paris[1].");
        assert_eq!(adapted.warnings, []);
    }

    #[test]
    fn malformed_annotations_warn_and_the_rest_survive() {
        let text = "Claim one. Claim two.";
        let adapted = adapt(&responses(
            text,
            json!([
                url_citation(0, 10, "https://a.example/", "A"),
                {"type": "url_citation", "start_index": 0, "end_index": 500, "url": "https://b.example/"},
                {"type": "url_citation", "start_index": "0", "end_index": 3, "url": "https://c.example/"},
                {"type": "url_citation", "start_index": 0, "end_index": 3},
                {"type": "file_citation", "filename": "x.pdf", "index": 3},
                {"type": "mystery"},
                {"type": "file_path", "file_id": "file-1", "index": 0},
                7
            ]),
        ));
        assert_eq!(adapted.markdown, "Claim one.[1] Claim two.");
        let paths: Vec<String> = adapted.warnings.iter().map(|w| w.path.clone()).collect();
        let at = |i: usize| format!("output[1].content[0].annotations[{i}]");
        assert_eq!(paths, [at(1), at(2), at(3), at(4), at(5), at(7)]);
        for wrong in [
            json!(null),
            json!({"output": 3}),
            json!({"choices": []}),
            json!({"output": [{"type": "message", "content": "x"}]}),
        ] {
            let adapted = adapt(&wrong);
            assert_eq!(adapted.markdown, "");
            assert!(!adapted.warnings.is_empty(), "{wrong}");
        }
    }

    #[test]
    fn tracking_tag_is_removed_and_the_rest_of_the_query_kept() {
        assert_eq!(
            without_openai_tag("https://a.example/?utm_source=openai"),
            "https://a.example/"
        );
        assert_eq!(
            without_openai_tag("https://a.example/p?x=1&utm_source=openai#top"),
            "https://a.example/p?x=1#top"
        );
        assert_eq!(
            without_openai_tag("https://a.example/p"),
            "https://a.example/p"
        );
    }
}
