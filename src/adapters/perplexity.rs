//! Perplexity chat completions (`POST https://api.perplexity.ai/chat/completions`).
//!
//! The response is OpenAI-shaped: the answer is `choices[0].message.content`,
//! and the model already wrote `[1]`-style markers into it. What they point
//! at sits beside `choices`:
//!
//! - `search_results`: one object per web result, `{title, url, date,
//!   last_updated, snippet, …}` (the current field, with titles);
//! - `citations`: the same results as bare URLs (the older field, still sent).
//!
//! Both lists are in marker order: `[1]` is the first entry. The adapter reads
//! them position by position, preferring `search_results` (it has titles) and
//! falling back to the `citations` URL for a slot whose search result is
//! missing or has no `url`. Every source gets its number written explicitly
//! (`index`), so a slot that had to be skipped never shifts the others.
//!
//! Reasoning models (`sonar-reasoning*`) put their chain of thought in a
//! leading `<think>…</think>` block of the content; it is dropped, since it is
//! not part of the answer.
//!
//! # Example
//! ```
//! use citemark::adapters::perplexity;
//! use serde_json::json;
//!
//! let response = json!({
//!     "choices": [{"message": {"role": "assistant", "content": "Rust 1.80 shipped [1]."}}],
//!     "citations": ["https://blog.rust-lang.org/"],
//!     "search_results": [{"title": "Rust blog", "url": "https://blog.rust-lang.org/", "date": "2024-07-25"}]
//! });
//! let adapted = perplexity::adapt(&response);
//! assert_eq!(adapted.markdown, "Rust 1.80 shipped [1].");
//! assert_eq!(adapted.sources[0].index, Some(1));
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("Rust blog"));
//! assert_eq!(adapted.sources[0].href.as_deref(), Some("https://blog.rust-lang.org/"));
//! assert_eq!(adapted.sources[0].data["date"], "2024-07-25");
//! ```

use serde_json::{Map, Value};

use super::json::{non_null_fields, string_field, type_name, ROOT};
use super::Adapted;
use crate::source::Source;

/// Turns a Perplexity chat completion into markdown and numbered sources.
///
/// Never fails: a missing answer gives empty markdown, an unusable result
/// entry is skipped, and each problem is reported in
/// [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let Some(body) = response.as_object() else {
        adapted.warn(
            ROOT,
            format!(
                "expected a chat completion object, found {}",
                type_name(response)
            ),
        );
        return adapted;
    };
    adapted.markdown = answer_text(body, &mut adapted);
    adapted.sources = numbered_sources(body, &mut adapted);
    adapted
}

/// `choices[0].message.content`, without a reasoning model's `<think>` block.
fn answer_text(body: &Map<String, Value>, adapted: &mut Adapted) -> String {
    let first_choice = match body.get("choices") {
        None => {
            adapted.warn("choices", "missing: there is no answer text");
            return String::new();
        }
        Some(Value::Array(choices)) => match choices.first() {
            Some(choice) => choice,
            None => {
                adapted.warn("choices", "empty array: there is no answer text");
                return String::new();
            }
        },
        Some(other) => {
            adapted.warn(
                "choices",
                format!("expected an array, found {}", type_name(other)),
            );
            return String::new();
        }
    };
    match first_choice.get("message").and_then(|m| m.get("content")) {
        Some(Value::String(content)) => without_reasoning(content).to_owned(),
        None => {
            adapted.warn(
                "choices[0].message.content",
                "missing: there is no answer text",
            );
            String::new()
        }
        Some(other) => {
            adapted.warn(
                "choices[0].message.content",
                format!("expected a string, found {}", type_name(other)),
            );
            String::new()
        }
    }
}

/// Drops a leading `<think>…</think>` block (and the blank space after it).
/// An unclosed block is left alone: better to show it than lose the answer.
fn without_reasoning(content: &str) -> &str {
    const OPEN: &str = "<think>";
    const CLOSE: &str = "</think>";
    let Some(rest) = content.trim_start().strip_prefix(OPEN) else {
        return content;
    };
    match rest.find(CLOSE) {
        Some(end) => rest[end + CLOSE.len()..].trim_start(),
        None => content,
    }
}

/// One source per position of `search_results` / `citations`, numbered from 1.
fn numbered_sources(body: &Map<String, Value>, adapted: &mut Adapted) -> Vec<Source> {
    let results = array_field(body, "search_results", adapted);
    let urls = array_field(body, "citations", adapted);
    if !body.contains_key("search_results") && !body.contains_key("citations") {
        adapted.warn(
            "search_results",
            "missing, and so is `citations`: the answer's [n] markers have no sources",
        );
    }
    let slots = results.len().max(urls.len());
    (0..slots)
        .filter_map(|position| {
            let url = citation_url(urls.get(position), position, adapted);
            source_at(position, results.get(position), url, adapted)
        })
        .collect()
}

/// The array under `key`, or an empty slice (with a warning when the field is
/// there but unusable).
fn array_field<'a>(body: &'a Map<String, Value>, key: &str, adapted: &mut Adapted) -> &'a [Value] {
    match body.get(key) {
        None => &[],
        Some(Value::Array(items)) => {
            if items.is_empty() {
                adapted.warn(key, "empty array");
            }
            items
        }
        Some(other) => {
            adapted.warn(
                key,
                format!("expected an array, found {}", type_name(other)),
            );
            &[]
        }
    }
}

/// `citations[position]` as a URL, if it is a string.
fn citation_url<'a>(
    entry: Option<&'a Value>,
    position: usize,
    adapted: &mut Adapted,
) -> Option<&'a str> {
    match entry? {
        Value::String(url) => Some(url),
        other => {
            adapted.warn(
                format!("citations[{position}]"),
                format!("expected a URL string, found {}", type_name(other)),
            );
            None
        }
    }
}

/// The source numbered `position + 1`, from its search result and/or its
/// `citations` URL; `None` when neither gives anything to link or show.
fn source_at(
    position: usize,
    result: Option<&Value>,
    fallback_url: Option<&str>,
    adapted: &mut Adapted,
) -> Option<Source> {
    let number = u32::try_from(position + 1).ok()?;
    let path = format!("search_results[{position}]");
    let mut source = Source::with_index(number);
    match result {
        None => {}
        Some(Value::Object(result)) => fill_from_search_result(&mut source, result, &path, adapted),
        Some(other) => adapted.warn(
            path.as_str(),
            format!("expected an object, found {}", type_name(other)),
        ),
    }
    if source.href.is_none() {
        source.href = fallback_url.map(str::to_owned);
    }
    if source.href.is_none() && source.title.is_none() {
        // Name the list the slot came from, so the warning points somewhere real.
        let path = if result.is_some() {
            path
        } else {
            format!("citations[{position}]")
        };
        adapted.warn(
            path,
            format!("neither a url nor a title: [{number}] is left without a source"),
        );
        return None;
    }
    Some(source)
}

/// Title, URL, snippet and dates from one `search_results` entry.
fn fill_from_search_result(
    source: &mut Source,
    result: &Map<String, Value>,
    path: &str,
    adapted: &mut Adapted,
) {
    source.title = string_field(result, "title", path, adapted);
    source.href = string_field(result, "url", path, adapted);
    source.excerpt = string_field(result, "snippet", path, adapted);
    let dates = non_null_fields(result, &["date", "last_updated"]);
    if !dates.is_empty() {
        source.data = Value::Object(dates);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A sonar-pro answer as the API returns it (trimmed `usage`).
    fn sonar_response() -> Value {
        json!({
            "id": "3c90c3cc-0d44-4b50-8888-8dd25736052a",
            "model": "sonar-pro",
            "created": 1_724_369_245,
            "object": "chat.completion",
            "usage": {"prompt_tokens": 14, "completion_tokens": 70, "total_tokens": 84},
            "citations": [
                "https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html",
                "https://doc.rust-lang.org/std/cell/struct.LazyCell.html"
            ],
            "search_results": [
                {
                    "title": "Announcing Rust 1.80.0",
                    "url": "https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html",
                    "date": "2024-07-25",
                    "last_updated": "2024-07-26",
                    "snippet": "LazyCell and LazyLock are now stable."
                },
                {
                    "title": "LazyCell in std::cell",
                    "url": "https://doc.rust-lang.org/std/cell/struct.LazyCell.html",
                    "date": null
                }
            ],
            "choices": [{
                "index": 0,
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": "Rust 1.80 stabilized `LazyCell` [1][2] and exclusive ranges in patterns [1]."
                },
                "delta": {"role": "assistant", "content": ""}
            }]
        })
    }

    #[test]
    fn search_results_give_numbered_titled_sources() {
        let adapted = adapt(&sonar_response());
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            adapted.markdown,
            "Rust 1.80 stabilized `LazyCell` [1][2] and exclusive ranges in patterns [1]."
        );
        assert_eq!(
            adapted.sources,
            vec![
                Source::with_index(1)
                    .with_title("Announcing Rust 1.80.0")
                    .with_href("https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html")
                    .with_excerpt("LazyCell and LazyLock are now stable.")
                    .with_data(json!({"date": "2024-07-25", "last_updated": "2024-07-26"})),
                Source::with_index(2)
                    .with_title("LazyCell in std::cell")
                    .with_href("https://doc.rust-lang.org/std/cell/struct.LazyCell.html"),
            ]
        );
    }

    #[test]
    fn markers_resolve_to_the_search_results() {
        let adapted = adapt(&sonar_response());
        let out = crate::render(&adapted.markdown, &adapted.options());
        let occurrences = &out.citations.occurrences;
        assert_eq!(occurrences.len(), 3);
        assert!(occurrences.iter().all(|o| o.resolved), "{occurrences:?}");
        assert_eq!(occurrences[1].key, "2");
        assert!(out
            .html
            .contains(r#"href="https://doc.rust-lang.org/std/cell/struct.LazyCell.html" title="LazyCell in std::cell""#));
        assert!(out.citations.diagnostics.is_empty());
    }

    #[test]
    fn citations_alone_give_url_sources() {
        let response = json!({
            "choices": [{"message": {"content": "See [2] and [1]."}}],
            "citations": ["https://a.example/", "https://b.example/"]
        });
        let adapted = adapt(&response);
        assert!(adapted.warnings.is_empty(), "{:?}", adapted.warnings);
        assert_eq!(
            adapted.sources,
            vec![
                Source::with_index(1).with_href("https://a.example/"),
                Source::with_index(2).with_href("https://b.example/"),
            ]
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
        assert!(out.html.contains(r#"href="https://b.example/""#));
    }

    #[test]
    fn a_search_result_without_url_borrows_the_citation_url() {
        let response = json!({
            "choices": [{"message": {"content": "x [1]"}}],
            "citations": ["https://a.example/"],
            "search_results": [{"title": "A"}]
        });
        let adapted = adapt(&response);
        assert!(adapted.warnings.is_empty());
        assert_eq!(
            adapted.sources,
            vec![Source::with_index(1)
                .with_title("A")
                .with_href("https://a.example/")]
        );
    }

    #[test]
    fn a_bad_entry_is_skipped_without_renumbering_the_rest() {
        let response = json!({
            "choices": [{"message": {"content": "One [1], two [2], three [3]."}}],
            "search_results": [
                {"title": "One", "url": "https://1.example/"},
                42,
                {"title": "Three", "url": "https://3.example/", "snippet": 7}
            ]
        });
        let adapted = adapt(&response);
        let numbers: Vec<_> = adapted.sources.iter().map(|s| s.index).collect();
        assert_eq!(numbers, vec![Some(1), Some(3)]);
        assert_eq!(adapted.sources[1].excerpt, None);
        let paths: Vec<_> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "search_results[1]",
                "search_results[1]",
                "search_results[2].snippet"
            ]
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        let resolved: Vec<_> = out
            .citations
            .occurrences
            .iter()
            .map(|o| o.resolved)
            .collect();
        assert_eq!(resolved, vec![true, true]);
        assert!(out.html.contains("two [2],"), "{}", out.html);
    }

    #[test]
    fn reasoning_block_is_dropped() {
        let response = json!({
            "choices": [{"message": {"content": "<think>\nLet me check [1].\n</think>\n\nIt is stable [1]."}}],
            "citations": ["https://a.example/"]
        });
        assert_eq!(adapt(&response).markdown, "It is stable [1].");
        assert_eq!(
            without_reasoning("<think>never closed"),
            "<think>never closed"
        );
        assert_eq!(
            without_reasoning("no <think> at start"),
            "no <think> at start"
        );
    }

    #[test]
    fn malformed_payloads_warn_and_never_panic() {
        for (response, path) in [
            (json!(null), "$"),
            (json!(3), "$"),
            (json!([]), "$"),
            (json!({}), "choices"),
            (json!({"choices": []}), "choices"),
            (json!({"choices": {"message": {}}}), "choices"),
            (json!({"choices": [null]}), "choices[0].message.content"),
            (
                json!({"choices": [{"message": {"content": null}}]}),
                "choices[0].message.content",
            ),
            (
                json!({"choices": [{"message": {"content": ["part"]}}]}),
                "choices[0].message.content",
            ),
        ] {
            let adapted = adapt(&response);
            assert_eq!(adapted.markdown, "", "{response}");
            assert_eq!(adapted.warnings[0].path, path, "{response}");
        }
    }

    #[test]
    fn unusable_source_lists_warn() {
        let response = json!({
            "choices": [{"message": {"content": "x [1]"}}],
            "search_results": {"title": "not a list"},
            "citations": [null, "https://b.example/"]
        });
        let adapted = adapt(&response);
        assert_eq!(adapted.markdown, "x [1]");
        assert_eq!(
            adapted.sources,
            vec![Source::with_index(2).with_href("https://b.example/")]
        );
        let paths: Vec<_> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["search_results", "citations[0]", "citations[0]"]
        );

        let empty =
            adapt(&json!({"choices": [{"message": {"content": "x"}}], "search_results": []}));
        assert_eq!(empty.warnings[0].path, "search_results");
        assert!(empty.warnings[0].message.contains("empty"));

        let none = adapt(&json!({"choices": [{"message": {"content": "x"}}]}));
        assert_eq!(none.warnings.len(), 1);
        assert!(none.warnings[0].message.contains("no sources"));
    }
}
