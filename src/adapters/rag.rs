//! A retrieval backend's `source_chunks`: the passages it put in the prompt.
//!
//! This is the shape a RAG chat backend sends as its `source_chunks` stream
//! event (or serializes with the final answer): a list of retrieved chunks,
//! each
//!
//! ```json
//! {"index": 0, "chunk_id": "c-81", "document_id": "d-7", "document_title": "Q3 board deck",
//!  "chunk_index": 4, "excerpt": "Revenue grew 4%…", "similarity": 0.83}
//! ```
//!
//! `index` is the chunk's 0-based position in the prompt's context list, and
//! the prompt told the model to cite it as `[index + 1]`. So each chunk
//! becomes a source numbered `index + 1` (written explicitly, so chunks may
//! arrive in any order), titled by its document, with the excerpt for hover
//! previews and `data = {chunk_id, document_id, chunk_index, similarity}`.
//! The `chunk_id` is also the source's `id`, so `<cite id="c-81">` works too.
//!
//! Accepted envelopes: `{"source_chunks": [...], "content" | "text" | "answer": "..."}`,
//! a bare array of chunks, or a stream event `{"type" | "event": "source_chunks",
//! "data": [...]}`. The answer text is optional (an event carries none).
//!
//! # Example
//! ```
//! use citemark::adapters::rag;
//! use serde_json::json;
//!
//! let response = json!({
//!     "answer": "Revenue grew 4% [1].",
//!     "source_chunks": [{"index": 0, "chunk_id": "c-81", "document_id": "d-7",
//!                        "document_title": "Q3 board deck", "chunk_index": 4,
//!                        "excerpt": "Revenue grew 4%", "similarity": 0.83}]
//! });
//! let adapted = rag::adapt(&response);
//! assert_eq!(adapted.markdown, "Revenue grew 4% [1].");
//! assert_eq!(adapted.sources[0].index, Some(1));
//! assert_eq!(adapted.sources[0].id.as_deref(), Some("c-81"));
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("Q3 board deck"));
//! assert_eq!(adapted.sources[0].data["similarity"], 0.83);
//! ```

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::json::{element_path, non_null_fields, string_field, type_name, ROOT};
use super::Adapted;
use crate::source::Source;

/// The fields where the answer text may be, in the order they are tried.
const ANSWER_FIELDS: [&str; 3] = ["content", "text", "answer"];

/// The chunk fields copied into [`Source::data`].
const DATA_FIELDS: [&str; 4] = ["chunk_id", "document_id", "chunk_index", "similarity"];

/// Turns `source_chunks` (and the answer beside them, if any) into markdown
/// and sources numbered `index + 1`.
///
/// Never fails: an unusable chunk is skipped with a warning in
/// [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let Some((chunks, path)) = find_chunks(response, &mut adapted) else {
        return adapted;
    };
    if let Value::Object(envelope) = response {
        adapted.markdown = answer_text(envelope, &mut adapted);
    }
    let mut numbers_seen = BTreeSet::new();
    for (position, chunk) in chunks.iter().enumerate() {
        let chunk_path = element_path(path, position);
        if let Some(source) = chunk_source(chunk, position, &chunk_path, &mut adapted) {
            if let Some(number) = source.index.filter(|n| !numbers_seen.insert(*n)) {
                adapted.warn(
                    format!("{chunk_path}.index"),
                    format!("[{number}] is already another chunk's number; this one cannot be cited by number"),
                );
            }
            adapted.sources.push(source);
        }
    }
    adapted
}

/// The chunk list and its JSON path, from whichever envelope holds it;
/// `None` when the response is not something chunks could be in.
fn find_chunks<'a>(
    response: &'a Value,
    adapted: &mut Adapted,
) -> Option<(&'a [Value], &'static str)> {
    let (list, path) = match response {
        Value::Array(_) => (response, ROOT),
        Value::Object(envelope) => match envelope.get("source_chunks") {
            Some(list) => (list, "source_chunks"),
            None if is_source_chunks_event(envelope) => {
                (envelope.get("data").unwrap_or(&Value::Null), "data")
            }
            None => {
                adapted.warn("source_chunks", "missing: there are no sources");
                return Some((&[], "source_chunks"));
            }
        },
        other => {
            adapted.warn(
                ROOT,
                format!(
                    "expected an object with `source_chunks` or an array of chunks, found {}",
                    type_name(other)
                ),
            );
            return None;
        }
    };
    match list {
        Value::Array(chunks) => {
            if chunks.is_empty() {
                adapted.warn(path, "empty array: there are no sources");
            }
            Some((chunks, path))
        }
        other => {
            adapted.warn(
                path,
                format!("expected an array, found {}", type_name(other)),
            );
            Some((&[], path))
        }
    }
}

/// `{"type": "source_chunks", "data": ...}` or `{"event": "source_chunks", ...}`.
fn is_source_chunks_event(envelope: &Map<String, Value>) -> bool {
    ["type", "event"]
        .iter()
        .any(|key| envelope.get(*key).and_then(Value::as_str) == Some("source_chunks"))
}

/// The first of `content`, `text`, `answer` that holds a string.
fn answer_text(envelope: &Map<String, Value>, adapted: &mut Adapted) -> String {
    for key in ANSWER_FIELDS {
        match envelope.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(text)) => return text.clone(),
            Some(other) => adapted.warn(
                key,
                format!(
                    "expected the answer as a string, found {}",
                    type_name(other)
                ),
            ),
        }
    }
    String::new()
}

/// One chunk as a source, or `None` (with a warning) when it is not an object.
fn chunk_source(
    chunk: &Value,
    position: usize,
    path: &str,
    adapted: &mut Adapted,
) -> Option<Source> {
    let Some(chunk) = chunk.as_object() else {
        adapted.warn(
            path,
            format!("expected a chunk object, found {}", type_name(chunk)),
        );
        return None;
    };
    let mut source = Source::with_index(citation_number(chunk, position, path, adapted));
    source.id = chunk.get("chunk_id").and_then(id_text);
    source.title = string_field(chunk, "document_title", path, adapted);
    if matches!(chunk.get("document_title"), None | Some(Value::Null)) {
        adapted.warn(
            format!("{path}.document_title"),
            "missing: the source has no title",
        );
    }
    source.excerpt = string_field(chunk, "excerpt", path, adapted);
    source.data = chunk_data(chunk);
    Some(source)
}

/// `index + 1`; when `index` is missing or unusable, the chunk's position + 1
/// (the order the backend listed the chunks in is the best remaining guess).
fn citation_number(
    chunk: &Map<String, Value>,
    position: usize,
    path: &str,
    adapted: &mut Adapted,
) -> u32 {
    let fallback = u32::try_from(position).map_or(u32::MAX, |p| p.saturating_add(1));
    let problem = match chunk.get("index") {
        None | Some(Value::Null) => "missing",
        Some(index) => match index.as_u64().and_then(|i| u32::try_from(i).ok()) {
            Some(index) if index < u32::MAX => return index + 1,
            _ => "not a non-negative integer",
        },
    };
    adapted.warn(
        format!("{path}.index"),
        format!("{problem}: numbered [{fallback}] by its position instead"),
    );
    fallback
}

/// `{chunk_id, document_id, chunk_index, similarity}`, with whichever are present.
fn chunk_data(chunk: &Map<String, Value>) -> Value {
    let data = non_null_fields(chunk, &DATA_FIELDS);
    if data.is_empty() {
        Value::Null
    } else {
        Value::Object(data)
    }
}

/// An id written as a string or a number (databases hand out both).
fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(id) if !id.is_empty() => Some(id.clone()),
        Value::Number(id) => Some(id.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What the backend serializes with a finished answer; the chunks arrive
    /// in similarity order, not prompt order.
    fn answer_with_chunks() -> Value {
        json!({
            "conversation_id": "conv-12",
            "message_id": "msg-40",
            "content": "Net revenue rose 4% in Q3 [1], led by EMEA [2]. Churn was flat [1, 3].",
            "source_chunks": [
                {
                    "index": 1,
                    "chunk_id": "7f2c-0012",
                    "document_id": "doc-emea",
                    "document_title": "EMEA regional review",
                    "chunk_index": 12,
                    "excerpt": "EMEA contributed 61% of the quarter's growth.",
                    "similarity": 0.91
                },
                {
                    "index": 0,
                    "chunk_id": "7f2c-0003",
                    "document_id": "doc-board",
                    "document_title": "Q3 board deck",
                    "chunk_index": 3,
                    "excerpt": "Net revenue: +4% QoQ. Gross churn unchanged at 1.2%.",
                    "similarity": 0.87
                },
                {
                    "index": 2,
                    "chunk_id": 9_001,
                    "document_id": "doc-cs",
                    "document_title": "Customer success notes",
                    "chunk_index": 0,
                    "excerpt": "Renewals on plan.",
                    "similarity": 0.64
                }
            ]
        })
    }

    #[test]
    fn chunks_become_sources_numbered_index_plus_one() {
        let adapted = adapt(&answer_with_chunks());
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            adapted.markdown,
            "Net revenue rose 4% in Q3 [1], led by EMEA [2]. Churn was flat [1, 3]."
        );
        let mut emea = Source::with_index(2)
            .with_title("EMEA regional review")
            .with_excerpt("EMEA contributed 61% of the quarter's growth.")
            .with_data(json!({
                "chunk_id": "7f2c-0012", "document_id": "doc-emea", "chunk_index": 12, "similarity": 0.91
            }));
        emea.id = Some("7f2c-0012".into());
        let mut board = Source::with_index(1)
            .with_title("Q3 board deck")
            .with_excerpt("Net revenue: +4% QoQ. Gross churn unchanged at 1.2%.")
            .with_data(json!({
                "chunk_id": "7f2c-0003", "document_id": "doc-board", "chunk_index": 3, "similarity": 0.87
            }));
        board.id = Some("7f2c-0003".into());
        let mut notes = Source::with_index(3)
            .with_title("Customer success notes")
            .with_excerpt("Renewals on plan.")
            .with_data(json!({
                "chunk_id": 9_001, "document_id": "doc-cs", "chunk_index": 0, "similarity": 0.64
            }));
        notes.id = Some("9001".into());
        assert_eq!(adapted.sources, vec![emea, board, notes]);
    }

    #[test]
    fn markers_resolve_by_chunk_index_not_list_position() {
        let adapted = adapt(&answer_with_chunks());
        let out = crate::render(&adapted.markdown, &adapted.options());
        let occurrences = &out.citations.occurrences;
        assert_eq!(occurrences.len(), 4);
        assert!(occurrences.iter().all(|o| o.resolved), "{occurrences:?}");
        let titles: Vec<_> = occurrences
            .iter()
            .map(|o| {
                let number = o.number.expect("resolved occurrence has a number");
                let used = &out.citations.sources[number as usize - 1];
                used.source.title.clone().unwrap_or_default()
            })
            .collect();
        assert_eq!(
            titles,
            [
                "Q3 board deck",
                "EMEA regional review",
                "Q3 board deck",
                "Customer success notes"
            ]
        );
        assert!(out.html.contains(r#"title="EMEA regional review""#));
    }

    #[test]
    fn cite_tags_resolve_by_chunk_id() {
        let mut response = answer_with_chunks();
        response["content"] = json!(r#"Flat churn <cite id="7f2c-0003">per the deck</cite>."#);
        let adapted = adapt(&response);
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert!(out.citations.occurrences[0].resolved);
        assert!(out.html.contains(r#"title="Q3 board deck""#));
    }

    #[test]
    fn bare_array_and_stream_event_are_accepted() {
        let chunks = answer_with_chunks()["source_chunks"].clone();
        let bare = adapt(&chunks);
        assert!(bare.warnings.is_empty(), "{:?}", bare.warnings);
        assert_eq!(bare.markdown, "");
        assert_eq!(bare.sources.len(), 3);

        for key in ["type", "event"] {
            let mut event = json!({"data": chunks.clone()});
            event[key] = json!("source_chunks");
            let event = adapt(&event);
            assert!(event.warnings.is_empty(), "{:?}", event.warnings);
            assert_eq!(event.sources, bare.sources);
        }
    }

    #[test]
    fn answer_fields_are_tried_in_order() {
        let text = adapt(
            &json!({"text": "from text", "answer": "from answer", "source_chunks": [{"index": 0, "document_title": "A"}]}),
        );
        assert_eq!(text.markdown, "from text");
        let answer = adapt(
            &json!({"content": 5, "answer": "from answer", "source_chunks": [{"index": 0, "document_title": "A"}]}),
        );
        assert_eq!(answer.markdown, "from answer");
        assert_eq!(answer.warnings[0].path, "content");
    }

    #[test]
    fn bad_chunks_warn_and_the_rest_still_resolve() {
        let response = json!({
            "answer": "A [1], B [2], C [3], D [4].",
            "source_chunks": [
                {"index": 0, "document_title": "A", "excerpt": ["not", "text"]},
                "chunk-2",
                null,
                {"index": "3", "document_title": "D"},
                {"index": -1, "document_title": 4},
                {"index": 0, "document_title": "A again"}
            ]
        });
        let adapted = adapt(&response);
        let numbers: Vec<_> = adapted.sources.iter().map(|s| s.index).collect();
        assert_eq!(numbers, vec![Some(1), Some(4), Some(5), Some(1)]);
        assert_eq!(adapted.sources[0].excerpt, None);
        assert_eq!(adapted.sources[2].title, None);
        let paths: Vec<_> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "source_chunks[0].excerpt",
                "source_chunks[1]",
                "source_chunks[2]",
                "source_chunks[3].index",
                "source_chunks[4].index",
                "source_chunks[4].document_title",
                "source_chunks[5].index",
            ]
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        let keys: Vec<_> = out
            .citations
            .occurrences
            .iter()
            .map(|o| o.key.as_str())
            .collect();
        // [2] and [3] have no chunk and stay text; [1] is the first chunk numbered 1.
        assert_eq!(keys, ["1", "4"]);
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
        assert!(out.html.contains(r#"title="A""#));
    }

    #[test]
    fn malformed_envelopes_warn_and_never_panic() {
        for (response, path) in [
            (json!(null), "$"),
            (json!(12), "$"),
            (json!("source_chunks"), "$"),
            (json!({}), "source_chunks"),
            (json!({"answer": "x"}), "source_chunks"),
            (json!({"source_chunks": null}), "source_chunks"),
            (json!({"source_chunks": {"index": 0}}), "source_chunks"),
            (json!({"source_chunks": []}), "source_chunks"),
            (json!({"type": "source_chunks"}), "data"),
            (json!({"event": "source_chunks", "data": 1}), "data"),
            (json!([]), "$"),
            (json!([7]), "[0]"),
        ] {
            let adapted = adapt(&response);
            assert!(adapted.sources.is_empty(), "{response}");
            assert_eq!(adapted.warnings[0].path, path, "{response}");
        }
    }
}
