//! Open WebUI messages: the `sources` its RAG, web search and tools attach.
//!
//! Accepted shapes:
//!
//! - a stored chat message, `{"content": "...", "sources": [...]}` (older
//!   chats call the list `citations`; `sources` wins when both are there);
//! - a message plus the socket events that built it, `{"content": ...,
//!   "events": [...]}`, or a bare array of events. Events are `{"type", "data"}`
//!   (or the socket envelope `{"chat_id", "message_id", "data": {"type", "data"}}`)
//!   and are merged as Open WebUI's chat handler merges them: `source` and
//!   `citation` append their `data` to the sources (except
//!   `data.type == "code_execution"`, which is not a source), `chat:completion`
//!   replaces them with its `sources`, and `chat:message:delta`/`message`
//!   append to, `chat:message`/`replace` and `chat:completion.content` replace
//!   the content. Other events (status, files, title, …) do not matter here.
//!
//! Each source entry is `{"source": {"id", "name", "url"?, …}, "document":
//! [snippet, …], "metadata": [{…}, …], "distances": [number, …]}`, the three
//! arrays parallel. Numbering is exactly Open WebUI's (the backend's
//! `citation_idx_map`, which wrote `<source id="n">` into the prompt, and the
//! front-end's `Citations.svelte`, which resolves a clicked `[n]`): every
//! document is keyed by its `metadata.source`, else the entry's `source.id`,
//! else `"N/A"`; documents sharing a key are one citation; citations are
//! numbered from 1 in order of first appearance. An empty key falls through
//! to the next candidate, as in the backend (which built the numbers the model
//! saw).
//!
//! Each citation becomes a [`Source`] with `index` = its number, `id` = its
//! key, and, from its first document:
//!
//! - `title`: `metadata.name`, else `source.name`, else the key. When the key
//!   is a web URL (web search results), `metadata.title`, else
//!   `metadata.name`, else the URL: there `source.name` is the search query,
//!   not the page.
//! - `href`: `metadata.source_url` if it is an http(s) URL, else the key if it
//!   is one, else `source.url`.
//! - `excerpt`: the document snippet.
//! - `data`: `page` (0-based, as Open WebUI stores it), `relevance` (the
//!   distance, else `metadata.relevance`, else `metadata.score`) and
//!   `file_id`, when present; plus `chunks`, one `{excerpt, page, relevance}`
//!   per document, when several documents share the citation.
//!
//! The content already carries Open WebUI's `[1]`, `[1][2]` or `[1#page=3]`
//! markers and is passed through unchanged.
//!
//! # Example
//! ```
//! use citemark::adapters::openwebui;
//! use serde_json::json;
//!
//! let message = json!({
//!     "content": "Returns need a receipt [1].",
//!     "sources": [{
//!         "source": {"type": "web_search", "name": "return policy receipt"},
//!         "document": ["Returns require the original receipt."],
//!         "metadata": [{"source": "https://shop.example/returns", "title": "Returns & refunds"}],
//!         "distances": [0.71]
//!     }]
//! });
//! let adapted = openwebui::adapt(&message);
//! assert_eq!(adapted.markdown, "Returns need a receipt [1].");
//! let source = &adapted.sources[0];
//! assert_eq!(source.index, Some(1));
//! assert_eq!(source.title.as_deref(), Some("Returns & refunds"));
//! assert_eq!(source.href.as_deref(), Some("https://shop.example/returns"));
//! assert_eq!(source.data["relevance"], 0.71);
//! ```

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::json::{element_path, object_of, type_name, ROOT};
use super::Adapted;
use crate::source::Source;

/// The key of documents with neither `metadata.source` nor `source.id`.
const NO_KEY: &str = "N/A";

/// Turns an Open WebUI message (or its events) into markdown and numbered
/// sources.
///
/// Never fails: unusable entries are skipped with a warning in
/// [`Adapted::warnings`](super::Adapted::warnings), and what was usable keeps
/// the number Open WebUI gave it.
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let message = read_message(response, &mut adapted);
    adapted.markdown = message.content;
    adapted.sources = number_sources(&message.entries, &mut adapted);
    adapted
}

/// A message as the chat handler leaves it: its text and its source entries,
/// each with the JSON path it came from.
#[derive(Default)]
struct Message<'a> {
    content: String,
    entries: Vec<(String, &'a Value)>,
}

// ---------------------------------------------------------------------------
// Reading the message and merging events
// ---------------------------------------------------------------------------

fn read_message<'a>(response: &'a Value, adapted: &mut Adapted) -> Message<'a> {
    let mut message = Message::default();
    match response {
        Value::Array(events) => {
            if events.is_empty() {
                adapted.warn(ROOT, "empty array: no events, so no answer and no sources");
            }
            apply_events(&mut message, events, ROOT, adapted)
        }
        Value::Object(object) => {
            message.content = stored_content(object, adapted);
            message.entries = stored_entries(object, adapted);
            match object.get("events") {
                None | Some(Value::Null) => {}
                Some(Value::Array(events)) => apply_events(&mut message, events, "events", adapted),
                Some(other) => adapted.warn(
                    "events",
                    format!("expected an array, found {}", type_name(other)),
                ),
            }
            if !["sources", "citations", "events"]
                .iter()
                .any(|key| object.contains_key(*key))
            {
                adapted.warn(
                    "sources",
                    "missing, and so are `citations` and `events`: the answer's [n] markers have no sources",
                );
            }
        }
        other => adapted.warn(
            ROOT,
            format!(
                "expected a message object or an array of events, found {}",
                type_name(other)
            ),
        ),
    }
    message
}

/// The message's `content`; missing is only worth a warning when no events
/// could supply it.
fn stored_content(object: &Map<String, Value>, adapted: &mut Adapted) -> String {
    match object.get("content") {
        Some(Value::String(content)) => content.clone(),
        None | Some(Value::Null) => {
            if !object.contains_key("events") {
                adapted.warn("content", "missing: there is no answer text");
            }
            String::new()
        }
        Some(other) => {
            adapted.warn(
                "content",
                format!("expected a string, found {}", type_name(other)),
            );
            String::new()
        }
    }
}

/// `sources`, or the legacy `citations` when `sources` is absent or null
/// (Open WebUI reads `message.sources ?? message.citations`).
fn stored_entries<'a>(
    object: &'a Map<String, Value>,
    adapted: &mut Adapted,
) -> Vec<(String, &'a Value)> {
    let Some((key, list)) = ["sources", "citations"]
        .into_iter()
        .find_map(|key| object.get(key).filter(|v| !v.is_null()).map(|v| (key, v)))
    else {
        return Vec::new();
    };
    entries_of(list, key, adapted)
}

/// The elements of a source list, each with its path.
fn entries_of<'a>(list: &'a Value, path: &str, adapted: &mut Adapted) -> Vec<(String, &'a Value)> {
    match list {
        Value::Array(entries) => {
            if entries.is_empty() {
                adapted.warn(path, "empty array: there are no sources");
            }
            entries
                .iter()
                .enumerate()
                .map(|(i, entry)| (element_path(path, i), entry))
                .collect()
        }
        other => {
            adapted.warn(
                path,
                format!("expected an array, found {}", type_name(other)),
            );
            Vec::new()
        }
    }
}

fn apply_events<'a>(
    message: &mut Message<'a>,
    events: &'a [Value],
    path: &str,
    adapted: &mut Adapted,
) {
    for (i, event) in events.iter().enumerate() {
        apply_event(message, event, element_path(path, i), adapted);
    }
}

/// One event, as the chat handler applies it to the message.
fn apply_event<'a>(
    message: &mut Message<'a>,
    event: &'a Value,
    path: String,
    adapted: &mut Adapted,
) {
    let Some((kind, data, data_path)) = unwrap_event(event, path, adapted) else {
        return;
    };
    match kind {
        "source" | "citation" => add_event_sources(message, data, &data_path, adapted),
        "chat:completion" => apply_completion(message, data, &data_path, adapted),
        "chat:message:delta" | "message" => {
            if let Some(text) = event_content(data, &data_path, adapted) {
                message.content.push_str(text);
            }
        }
        "chat:message" | "replace" => {
            if let Some(text) = event_content(data, &data_path, adapted) {
                message.content = text.to_owned();
            }
        }
        // Status, files, title, tags, follow-ups…: nothing to do with citations.
        _ => {}
    }
}

/// `(type, data, path of data)`, looking through the socket envelope
/// `{"chat_id", "message_id", "data": {"type", "data"}}` once.
fn unwrap_event<'a>(
    event: &'a Value,
    path: String,
    adapted: &mut Adapted,
) -> Option<(&'a str, &'a Value, String)> {
    let Some(object) = event.as_object() else {
        adapted.warn(
            path,
            format!("expected an event object, found {}", type_name(event)),
        );
        return None;
    };
    let data = object.get("data").unwrap_or(&Value::Null);
    match object.get("type") {
        Some(Value::String(kind)) => Some((kind, data, format!("{path}.data"))),
        None if data.get("type").is_some_and(Value::is_string) => {
            unwrap_event(data, format!("{path}.data"), adapted)
        }
        _ => {
            adapted.warn(
                format!("{path}.type"),
                "expected the event's type as a string",
            );
            None
        }
    }
}

/// A `source`/`citation` event: its data (or each element of an array) is one
/// more source entry. Code-execution results travel the same way but are not
/// sources.
fn add_event_sources<'a>(
    message: &mut Message<'a>,
    data: &'a Value,
    path: &str,
    adapted: &mut Adapted,
) {
    match data {
        Value::Object(entry) => {
            if entry.get("type").and_then(Value::as_str) != Some("code_execution") {
                message.entries.push((path.to_owned(), data));
            }
        }
        Value::Array(_) => message.entries.extend(entries_of(data, path, adapted)),
        other => adapted.warn(
            path,
            format!("expected a source object, found {}", type_name(other)),
        ),
    }
}

/// A `chat:completion` event: `sources` replace the list, `content` replaces
/// the text, and a completion chunk's `choices[0]` text is appended.
fn apply_completion<'a>(
    message: &mut Message<'a>,
    data: &'a Value,
    path: &str,
    adapted: &mut Adapted,
) {
    let Some(completion) = data.as_object() else {
        adapted.warn(
            path,
            format!("expected an object, found {}", type_name(data)),
        );
        return;
    };
    if let Some(sources) = completion.get("sources").filter(|v| !v.is_null()) {
        message.entries = entries_of(sources, &format!("{path}.sources"), adapted);
    }
    if let Some(Value::String(content)) = completion.get("content") {
        message.content = content.clone();
    }
    let choice = completion.get("choices").and_then(|choices| choices.get(0));
    let appended = choice.and_then(|choice| {
        ["message", "delta"]
            .into_iter()
            .find_map(|key| choice.get(key)?.get("content")?.as_str())
    });
    if let Some(text) = appended {
        message.content.push_str(text);
    }
}

/// `data.content` of a message event.
fn event_content<'a>(data: &'a Value, path: &str, adapted: &mut Adapted) -> Option<&'a str> {
    let content = data.get("content").and_then(Value::as_str);
    if content.is_none() {
        adapted.warn(format!("{path}.content"), "expected the text as a string");
    }
    content
}

// ---------------------------------------------------------------------------
// Numbering, as Open WebUI does
// ---------------------------------------------------------------------------

/// One document of a source entry, with what it is keyed and described by.
struct Document<'a> {
    key: String,
    text: Option<&'a str>,
    metadata: Option<&'a Map<String, Value>>,
    distance: Option<&'a Value>,
    source: Option<&'a Map<String, Value>>,
}

/// One numbered citation: the source built from its first document, plus a
/// summary of every document merged into it.
struct Citation {
    source: Source,
    details: Map<String, Value>,
    chunks: Vec<Value>,
}

fn number_sources(entries: &[(String, &Value)], adapted: &mut Adapted) -> Vec<Source> {
    let mut citations: Vec<Citation> = Vec::new();
    let mut position_by_key: BTreeMap<String, usize> = BTreeMap::new();
    for (path, entry) in entries {
        for document in documents_of(entry, path, adapted) {
            let chunk = chunk_summary(&document);
            match position_by_key
                .get(&document.key)
                .and_then(|&at| citations.get_mut(at))
            {
                Some(citation) => citation.chunks.push(chunk),
                None => {
                    position_by_key.insert(document.key.clone(), citations.len());
                    citations.push(Citation {
                        source: first_source(&document),
                        details: details(&document),
                        chunks: vec![chunk],
                    });
                }
            }
        }
    }
    citations
        .into_iter()
        .zip(1..)
        .map(|(citation, number)| citation.into_source(number))
        .collect()
}

impl Citation {
    fn into_source(self, number: u32) -> Source {
        let Citation {
            mut source,
            mut details,
            chunks,
        } = self;
        source.index = Some(number);
        if chunks.len() > 1 {
            details.insert("chunks".to_owned(), Value::Array(chunks));
        }
        if !details.is_empty() {
            source.data = Value::Object(details);
        }
        source
    }
}

/// The documents of one source entry, keyed. Open WebUI walks `document`, and
/// takes `metadata[i]` and `distances[i]` beside each; so does this.
fn documents_of<'a>(entry: &'a Value, path: &str, adapted: &mut Adapted) -> Vec<Document<'a>> {
    let Some(entry) = entry.as_object() else {
        adapted.warn(
            path,
            format!("expected a source object, found {}", type_name(entry)),
        );
        return Vec::new();
    };
    if entry.is_empty() {
        adapted.warn(path, "empty object: skipped, as Open WebUI skips it");
        return Vec::new();
    }
    let texts = match entry.get("document") {
        Some(Value::Array(texts)) => texts,
        None | Some(Value::Null) => {
            adapted.warn(format!("{path}.document"), "missing: nothing to cite");
            return Vec::new();
        }
        Some(other) => {
            adapted.warn(
                format!("{path}.document"),
                format!("expected an array of snippets, found {}", type_name(other)),
            );
            return Vec::new();
        }
    };
    if texts.is_empty() {
        adapted.warn(format!("{path}.document"), "empty array: nothing to cite");
    }
    let metadata = optional_array(entry, "metadata", path, adapted);
    let distances = optional_array(entry, "distances", path, adapted);
    let source = match entry.get("source") {
        Some(Value::Object(source)) => Some(source),
        None | Some(Value::Null) => None,
        Some(other) => {
            adapted.warn(
                format!("{path}.source"),
                format!("expected an object, found {}", type_name(other)),
            );
            None
        }
    };
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let metadata = metadata_at(metadata, i, path, adapted);
            Document {
                key: citation_key(metadata, source),
                text: snippet(text, &format!("{path}.document[{i}]"), adapted),
                metadata,
                distance: distances.get(i).filter(|d| d.is_number()),
                source,
            }
        })
        .collect()
}

/// An optional parallel array (`metadata`, `distances`); empty when absent.
fn optional_array<'a>(
    entry: &'a Map<String, Value>,
    key: &str,
    path: &str,
    adapted: &mut Adapted,
) -> &'a [Value] {
    match entry.get(key) {
        Some(Value::Array(items)) => items,
        None | Some(Value::Null) => &[],
        Some(other) => {
            adapted.warn(
                format!("{path}.{key}"),
                format!("expected an array, found {}", type_name(other)),
            );
            &[]
        }
    }
}

/// `metadata[i]` as an object; a document may have none.
fn metadata_at<'a>(
    metadata: &'a [Value],
    i: usize,
    path: &str,
    adapted: &mut Adapted,
) -> Option<&'a Map<String, Value>> {
    match metadata.get(i)? {
        Value::Object(metadata) => Some(metadata),
        Value::Null => None,
        other => {
            adapted.warn(
                format!("{path}.metadata[{i}]"),
                format!("expected an object, found {}", type_name(other)),
            );
            None
        }
    }
}

/// The snippet text; a document that is not a string still counts for
/// numbering (Open WebUI numbers it too) but has no excerpt.
fn snippet<'a>(text: &'a Value, path: &str, adapted: &mut Adapted) -> Option<&'a str> {
    let text_str = text.as_str();
    if text_str.is_none() {
        adapted.warn(
            path,
            format!("expected a snippet string, found {}", type_name(text)),
        );
    }
    text_str
}

/// `metadata.source`, else `source.id`, else `"N/A"`.
fn citation_key(
    metadata: Option<&Map<String, Value>>,
    source: Option<&Map<String, Value>>,
) -> String {
    metadata
        .and_then(|m| key_text(m.get("source")))
        .or_else(|| source.and_then(|s| key_text(s.get("id"))))
        .unwrap_or_else(|| NO_KEY.to_owned())
}

/// A key written as a non-empty string or a number.
fn key_text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(key) if !key.is_empty() => Some(key.clone()),
        Value::Number(key) => Some(key.to_string()),
        _ => None,
    }
}

/// The source a citation shows, from its first document (index and data are
/// filled in once every document has been seen).
fn first_source(document: &Document) -> Source {
    Source {
        id: Some(document.key.clone()),
        title: title(document),
        href: href(document),
        excerpt: document.text.map(str::to_owned),
        ..Source::default()
    }
}

fn title(document: &Document) -> Option<String> {
    let metadata = |key: &str| document.metadata.and_then(|m| non_empty(m.get(key)));
    if is_web_url(&document.key) {
        // A web result: `source.name` is the search query, not the page.
        return metadata("title")
            .or_else(|| metadata("name"))
            .or_else(|| Some(document.key.clone()));
    }
    metadata("name")
        .or_else(|| document.source.and_then(|s| non_empty(s.get("name"))))
        .or_else(|| (document.key != NO_KEY).then(|| document.key.clone()))
}

fn href(document: &Document) -> Option<String> {
    let source_url = document
        .metadata
        .and_then(|m| non_empty(m.get("source_url")))
        .filter(|url| is_web_url(url));
    source_url
        .or_else(|| is_web_url(&document.key).then(|| document.key.trim().to_owned()))
        .or_else(|| document.source.and_then(|s| non_empty(s.get("url"))))
}

/// `page`, `relevance` and `file_id` of one document, when present.
fn details(document: &Document) -> Map<String, Value> {
    object_of(&detail_fields(document))
}

/// `page`, `relevance` and `file_id` of one document, in that order.
fn detail_fields<'a>(document: &Document<'a>) -> [(&'static str, Option<&'a Value>); 3] {
    let metadata = |key: &str| {
        document
            .metadata
            .and_then(|m| m.get(key))
            .filter(|v| !v.is_null())
    };
    let relevance = document
        .distance
        .or_else(|| metadata("relevance"))
        .or_else(|| metadata("score"));
    [
        ("page", metadata("page")),
        ("relevance", relevance),
        ("file_id", metadata("file_id")),
    ]
}

/// What `data.chunks` says about one document.
fn chunk_summary(document: &Document) -> Value {
    // (Without `file_id`: that is the source's, not the chunk's.)
    let mut chunk = object_of(&detail_fields(document)[..2]);
    if let Some(text) = document.text {
        chunk.insert("excerpt".to_owned(), Value::String(text.to_owned()));
    }
    Value::Object(chunk)
}

/// An http(s) URL with something after the scheme (Open WebUI's test is a
/// successful `new URL()` with an http(s) protocol and a host).
fn is_web_url(text: &str) -> bool {
    let text = text.trim();
    ["http://", "https://"].iter().any(|scheme| {
        text.get(..scheme.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(scheme))
            && text.len() > scheme.len()
    })
}

fn non_empty(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(text) if !text.trim().is_empty() => Some(text.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A stored assistant message after file RAG plus web search: two chunks of
    /// one PDF (one citation), a chunk of a second PDF, two web results.
    fn rag_message() -> Value {
        json!({
            "id": "2f7a4b51-7c1e-4a43-9d0b-6c1c3b3f6e12",
            "parentId": "a1d0c5e2-1111-4b8e-9a55-2f0e9d3c7b10",
            "childrenIds": [],
            "role": "assistant",
            "model": "llama3.1:8b",
            "done": true,
            "content": "The warranty lasts 24 months [1] and covers the battery [1#page=3]. \
                        Shipping is free [2]; returns need a receipt [3][4].",
            "sources": [
                {
                    "source": {
                        "type": "file",
                        "id": "5d7c9e1a-file",
                        "name": "warranty.pdf",
                        "status": "uploaded",
                        "size": 48213
                    },
                    "document": [
                        "Warranty period: 24 months from the date of purchase.",
                        "The battery is covered for the full warranty period."
                    ],
                    "metadata": [
                        {"file_id": "5d7c9e1a-file", "name": "warranty.pdf", "source": "warranty.pdf", "page": 0, "start_index": 0},
                        {"file_id": "5d7c9e1a-file", "name": "warranty.pdf", "source": "warranty.pdf", "page": 2, "start_index": 812}
                    ],
                    "distances": [0.8214, 0.6032]
                },
                {
                    "source": {"type": "file", "id": "9b3e-file", "name": "shipping.md"},
                    "document": ["Standard shipping is free on all orders."],
                    "metadata": [{"file_id": "9b3e-file", "name": "shipping.md", "source": "shipping.md", "score": 0.58}]
                },
                {
                    "source": {
                        "type": "web_search",
                        "name": "store return policy receipt",
                        "collection_name": "web-search-8c1f",
                        "urls": ["https://shop.example/returns", "https://help.shop.example/receipts"]
                    },
                    "document": [
                        "Returns require the original receipt.",
                        "Lost your receipt? We can look up card purchases.",
                        "Refunds are issued within 14 days."
                    ],
                    "metadata": [
                        {"source": "https://shop.example/returns", "title": "Returns & refunds", "language": "en"},
                        {"source": "https://help.shop.example/receipts", "language": "en"},
                        {"source": "https://shop.example/returns", "title": "Returns & refunds", "language": "en"}
                    ]
                }
            ]
        })
    }

    /// A source's number, id, title and excerpt.
    type Summary<'a> = (
        Option<u32>,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
    );

    /// Each source's [`Summary`].
    fn summary(adapted: &Adapted) -> Vec<Summary<'_>> {
        adapted
            .sources
            .iter()
            .map(|s| {
                (
                    s.index,
                    s.id.as_deref(),
                    s.title.as_deref(),
                    s.excerpt.as_deref(),
                )
            })
            .collect()
    }

    fn with_id(mut source: Source, id: &str) -> Source {
        source.id = Some(id.to_owned());
        source
    }

    #[test]
    fn documents_are_numbered_by_first_appearance_of_their_key() {
        let adapted = adapt(&rag_message());
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            adapted.sources,
            vec![
                with_id(Source::with_index(1), "warranty.pdf")
                    .with_title("warranty.pdf")
                    .with_excerpt("Warranty period: 24 months from the date of purchase.")
                    .with_data(json!({
                        "page": 0, "relevance": 0.8214, "file_id": "5d7c9e1a-file",
                        "chunks": [
                            {"page": 0, "relevance": 0.8214, "excerpt": "Warranty period: 24 months from the date of purchase."},
                            {"page": 2, "relevance": 0.6032, "excerpt": "The battery is covered for the full warranty period."}
                        ]
                    })),
                with_id(Source::with_index(2), "shipping.md")
                    .with_title("shipping.md")
                    .with_excerpt("Standard shipping is free on all orders.")
                    .with_data(json!({"relevance": 0.58, "file_id": "9b3e-file"})),
                with_id(Source::with_index(3), "https://shop.example/returns")
                    .with_title("Returns & refunds")
                    .with_href("https://shop.example/returns")
                    .with_excerpt("Returns require the original receipt.")
                    .with_data(json!({
                        "chunks": [
                            {"excerpt": "Returns require the original receipt."},
                            {"excerpt": "Refunds are issued within 14 days."}
                        ]
                    })),
                with_id(Source::with_index(4), "https://help.shop.example/receipts")
                    .with_title("https://help.shop.example/receipts")
                    .with_href("https://help.shop.example/receipts")
                    .with_excerpt("Lost your receipt? We can look up card purchases."),
            ]
        );
    }

    #[test]
    fn open_webui_markers_resolve() {
        let adapted = adapt(&rag_message());
        let out = crate::render(&adapted.markdown, &adapted.options());
        let occurrences = &out.citations.occurrences;
        let keys: Vec<_> = occurrences.iter().map(|o| o.key.as_str()).collect();
        assert_eq!(keys, ["1", "1", "2", "3", "4"]);
        assert!(occurrences.iter().all(|o| o.resolved), "{occurrences:?}");
        assert_eq!(occurrences[1].fragment.as_deref(), Some("page=3"));
        assert!(out
            .html
            .contains(r#"href="https://shop.example/returns" title="Returns &amp; refunds""#));
        assert!(out.citations.diagnostics.is_empty());
    }

    #[test]
    fn legacy_citations_field_is_read() {
        let mut message = rag_message();
        let sources = message["sources"].take();
        message["citations"] = sources;
        message["sources"] = Value::Null;
        let adapted = adapt(&message);
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(adapted.sources, adapt(&rag_message()).sources);
    }

    /// The events a Tool emits with `__event_emitter__`, as the docs show, plus
    /// the chat handler's own status and completion events.
    fn tool_events() -> Value {
        json!([
            {"type": "status", "data": {"description": "Fetching forecast", "done": false}},
            {"type": "citation", "data": {
                "document": ["Rain expected after 15:00, 12°C."],
                "metadata": [{"date_accessed": "2025-05-02T10:14:00", "source": "Weather API"}],
                "source": {"name": "Weather API", "url": "https://api.weather.example/v1/forecast?q=Oslo"}
            }},
            {"type": "source", "data": {"type": "code_execution", "id": "exec-1", "code": "print(1)"}},
            {"chat_id": "c-9", "message_id": "m-3", "data": {"type": "source", "data": {
                "document": ["Oslo: 709,000 inhabitants (2024)."],
                "metadata": [{"source": "https://www.ssb.no/en/befolkning"}],
                "source": {"name": "oslo population"}
            }}},
            {"type": "chat:message:delta", "data": {"content": "Expect rain this afternoon [1]. "}},
            {"type": "chat:message:delta", "data": {"content": "Oslo has about 709,000 people [2]."}},
            {"type": "status", "data": {"description": "Done", "done": true}}
        ])
    }

    #[test]
    fn events_are_merged_like_the_chat_handler() {
        let adapted = adapt(&tool_events());
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            adapted.markdown,
            "Expect rain this afternoon [1]. Oslo has about 709,000 people [2]."
        );
        assert_eq!(
            adapted.sources,
            vec![
                with_id(Source::with_index(1), "Weather API")
                    .with_title("Weather API")
                    .with_href("https://api.weather.example/v1/forecast?q=Oslo")
                    .with_excerpt("Rain expected after 15:00, 12°C."),
                with_id(Source::with_index(2), "https://www.ssb.no/en/befolkning")
                    .with_title("https://www.ssb.no/en/befolkning")
                    .with_href("https://www.ssb.no/en/befolkning")
                    .with_excerpt("Oslo: 709,000 inhabitants (2024)."),
            ]
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert_eq!(out.citations.occurrences.len(), 2);
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
    }

    #[test]
    fn events_extend_a_stored_message_and_completion_replaces() {
        let message = json!({
            "content": "",
            "sources": [{"source": {"id": "old", "name": "Old"}, "document": ["old"]}],
            "events": [
                {"type": "source", "data": {"source": {"id": "kb-1", "name": "Handbook"}, "document": ["a", "b"]}},
                {"type": "chat:completion", "data": {"choices": [{"delta": {"content": "Per the handbook [2]"}}]}},
                {"type": "chat:completion", "data": {"choices": [{"message": {"content": "."}}]}}
            ]
        });
        let adapted = adapt(&message);
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(adapted.markdown, "Per the handbook [2].");
        let titles: Vec<_> = adapted.sources.iter().map(|s| s.title.as_deref()).collect();
        assert_eq!(titles, [Some("Old"), Some("Handbook")]);
        assert_eq!(adapted.sources[1].data["chunks"][1]["excerpt"], "b");

        let replaced = adapt(&json!({"events": [
            {"type": "source", "data": {"source": {"id": "x"}, "document": ["x"]}},
            {"type": "chat:completion", "data": {
                "content": "Final [1].",
                "sources": [{"source": {"id": "y", "name": "Y"}, "document": ["y"]}]
            }},
            {"type": "replace", "data": {"content": "Replaced [1]."}}
        ]}));
        assert!(replaced.warnings.is_empty(), "{:?}", replaced.warnings);
        assert_eq!(replaced.markdown, "Replaced [1].");
        assert_eq!(replaced.sources.len(), 1);
        assert_eq!(replaced.sources[0].title.as_deref(), Some("Y"));
    }

    #[test]
    fn keys_fall_back_to_source_id_then_n_a() {
        let message = json!({
            "content": "[1] [2] [3]",
            "sources": [
                {"source": {"id": "tool-7", "name": "Calculator"}, "document": ["42"], "metadata": [{"source": ""}]},
                {"source": {"name": "Anonymous"}, "document": ["?"]},
                {"document": ["also anonymous"], "metadata": [{"name": "Scratch"}]},
                {"source": {"id": 12}, "document": ["numbered id"]}
            ]
        });
        let adapted = adapt(&message);
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            summary(&adapted),
            [
                (Some(1), Some("tool-7"), Some("Calculator"), Some("42")),
                (Some(2), Some("N/A"), Some("Anonymous"), Some("?")),
                (Some(3), Some("12"), Some("12"), Some("numbered id")),
            ]
        );
        // The third entry shares "N/A" with the second, so it is chunk 2 of [2].
        assert_eq!(
            adapted.sources[1].data["chunks"][1]["excerpt"],
            "also anonymous"
        );
    }

    #[test]
    fn source_url_in_metadata_wins_for_href() {
        let message = json!({
            "content": "[1]",
            "sources": [{
                "source": {"id": "f", "name": "report.pdf", "url": "https://files.example/report.pdf"},
                "document": ["p1"],
                "metadata": [{"source": "report.pdf", "source_url": "https://intranet.example/report"}]
            }]
        });
        let adapted = adapt(&message);
        assert_eq!(
            adapted.sources[0].href.as_deref(),
            Some("https://intranet.example/report")
        );
        let no_metadata_url = adapt(&json!({
            "content": "[1]",
            "sources": [{"source": {"id": "f", "name": "report.pdf", "url": "https://files.example/report.pdf"}, "document": ["p1"]}]
        }));
        assert_eq!(
            no_metadata_url.sources[0].href.as_deref(),
            Some("https://files.example/report.pdf")
        );
    }

    #[test]
    fn bad_entries_warn_and_keep_open_webui_numbering() {
        let message = json!({
            "content": "A [1], B [2].",
            "sources": [
                null,
                {},
                {"source": {"id": "a", "name": "A"}},
                {"source": {"id": "a"}, "document": "not a list"},
                {"source": "a", "document": [17], "metadata": 3, "distances": {"d": 1}},
                {"source": {"id": "b", "name": "B"}, "document": ["b"], "metadata": ["m"], "distances": [null]},
                {"source": {"id": "c", "name": "C"}, "document": []}
            ]
        });
        let adapted = adapt(&message);
        let paths: Vec<_> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "sources[0]",
                "sources[1]",
                "sources[2].document",
                "sources[3].document",
                "sources[4].metadata",
                "sources[4].distances",
                "sources[4].source",
                "sources[4].document[0]",
                "sources[5].metadata[0]",
                "sources[6].document",
            ]
        );
        // The number-only document still took number 1 (key "N/A"), as in Open WebUI.
        assert_eq!(
            summary(&adapted),
            [
                (Some(1), Some("N/A"), None, None),
                (Some(2), Some("b"), Some("B"), Some("b")),
            ]
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
        assert_eq!(out.citations.occurrences.len(), 2);
    }

    #[test]
    fn malformed_messages_and_events_warn_and_never_panic() {
        for (response, path) in [
            (json!(null), "$"),
            (json!("text"), "$"),
            (json!(7), "$"),
            (json!({}), "content"),
            (json!({"content": 3, "sources": []}), "content"),
            (json!({"content": "x"}), "sources"),
            (json!({"content": "x", "sources": []}), "sources"),
            (json!({"content": "x", "sources": {"0": {}}}), "sources"),
            (json!({"content": "x", "events": "no"}), "events"),
            (json!([]), "$"),
            (json!([1]), "[0]"),
            (json!([{"data": {}}]), "[0].type"),
            (json!([{"type": 5}]), "[0].type"),
            (json!([{"type": "source"}]), "[0].data"),
            (json!([{"type": "citation", "data": "doc"}]), "[0].data"),
            (
                json!([{"type": "message", "data": {"content": 1}}]),
                "[0].data.content",
            ),
            (json!([{"type": "chat:completion", "data": []}]), "[0].data"),
            (
                json!([{"type": "chat:completion", "data": {"sources": 4}}]),
                "[0].data.sources",
            ),
        ] {
            let adapted = adapt(&response);
            assert!(adapted.sources.is_empty(), "{response}");
            assert_eq!(
                adapted.warnings.first().map(|w| w.path.as_str()),
                Some(path),
                "{response}"
            );
        }
    }

    #[test]
    fn web_url_check_matches_open_webui() {
        assert!(is_web_url("https://a.example/x"));
        assert!(is_web_url(" HTTP://a.example"));
        assert!(!is_web_url("https://"));
        assert!(!is_web_url("ftp://a.example"));
        assert!(!is_web_url("report.pdf"));
        assert!(!is_web_url("héllo"));
    }
}
