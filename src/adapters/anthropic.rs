//! Anthropic Messages API responses: `content[]` text blocks carrying
//! `citations`.
//!
//! The markdown is the concatenated `text` of the text blocks (tool-use and
//! search-result blocks carry no answer text). Claude splits its answer so
//! that each cited claim is a block of its own; after such a block comes one
//! marker listing its citations (snapped past any word, code or link the
//! block boundary cuts, and before trailing whitespace).
//!
//! Each citation names what it cites; one source per distinct thing:
//!
//! | citation `type`                | same source when            | title / href                   |
//! |--------------------------------|-----------------------------|--------------------------------|
//! | `char_location`, `page_location`, `content_block_location` | same `document_index` | `document_title` / — |
//! | `web_search_result_location`   | same `url`                  | `title` / `url`                |
//! | `search_result_location`       | same `source`               | `title` / `source` if a URL    |
//!
//! The first `cited_text` is the source's excerpt; `data.quotes` keeps every
//! distinct `cited_text` with its location fields (`start_char_index`,
//! `start_page_number`, `start_block_index`, … as given), and `data.kind` the
//! citation type. Titles missing from web citations are filled from the
//! `web_search_tool_result` blocks of the same response.
//!
//! # Example
//! ```
//! use citemark::adapters::anthropic;
//! use serde_json::json;
//!
//! let response = json!({"content": [
//!     {"type": "text", "text": "According to the report, "},
//!     {"type": "text", "text": "revenue grew 12%", "citations": [{
//!         "type": "char_location", "cited_text": "Revenue grew 12% year over year.",
//!         "document_index": 0, "document_title": "Annual report", "start_char_index": 0, "end_char_index": 32
//!     }]},
//!     {"type": "text", "text": "."}
//! ]});
//! let adapted = anthropic::adapt(&response);
//! assert_eq!(adapted.markdown, "According to the report, revenue grew 12%[1].");
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("Annual report"));
//! assert_eq!(adapted.sources[0].excerpt.as_deref(), Some("Revenue grew 12% year over year."));
//! ```

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::insert::{self, Edit};
use super::json::{array_field, element_path, expect_object, object, string_field, ROOT};
use super::Adapted;
use crate::source::Source;

/// Location fields kept in `data.quotes`, whichever citation type has them.
const LOCATION_FIELDS: [&str; 9] = [
    "document_index",
    "start_char_index",
    "end_char_index",
    "start_page_number",
    "end_page_number",
    "start_block_index",
    "end_block_index",
    "search_result_index",
    "encrypted_index",
];

/// Turns an Anthropic message into markdown with markers and numbered
/// sources.
///
/// Never fails: unusable blocks and citations are skipped, and each problem
/// is reported in [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let Some(message) = expect_object(response, ROOT, "a Messages API response", &mut adapted)
    else {
        return adapted;
    };
    let blocks = array_field(message, "content", ROOT, &mut adapted);
    if !message.contains_key("content") {
        adapted.warn("content", "missing: the answer is empty");
    }
    let web_titles = web_result_titles(blocks);
    let mut sources = Sources::default();
    let mut text = String::new();
    let mut edits = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let path = element_path("content", i);
        let Some(block) = expect_object(block, &path, "a content block", &mut adapted) else {
            continue;
        };
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        text.push_str(&string_field(block, "text", &path, &mut adapted).unwrap_or_default());
        let mut numbers = Vec::new();
        for (k, citation) in array_field(block, "citations", &path, &mut adapted)
            .iter()
            .enumerate()
        {
            let path = format!("{path}.citations[{k}]");
            if let Some(n) = sources.cite(citation, &path, &web_titles, &mut adapted) {
                numbers.push(n);
            }
        }
        if !numbers.is_empty() {
            edits.push(Edit::insert(text.len(), numbers));
        }
    }
    adapted.markdown = insert::apply(&text, edits);
    adapted.sources = sources.list;
    adapted
}

/// Sources in order of first citation, found again by their key.
#[derive(Default)]
struct Sources {
    list: Vec<Source>,
    by_key: BTreeMap<String, usize>,
}

impl Sources {
    /// The number of the source `citation` cites (added when new), with its
    /// quote recorded.
    fn cite(
        &mut self,
        citation: &Value,
        path: &str,
        web_titles: &[(&str, &str)],
        adapted: &mut Adapted,
    ) -> Option<u32> {
        let citation = expect_object(citation, path, "a citation", adapted)?;
        let kind = citation
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (key, title, href) = match kind {
            "char_location" | "page_location" | "content_block_location" => {
                let Some(index) = citation.get("document_index").and_then(Value::as_u64) else {
                    adapted.warn(path, "no `document_index`: dropped");
                    return None;
                };
                let title = string_field(citation, "document_title", path, adapted);
                (format!("document:{index}"), title, None)
            }
            "web_search_result_location" => {
                let Some(url) = string_field(citation, "url", path, adapted) else {
                    adapted.warn(path, "no `url`: dropped");
                    return None;
                };
                let title = string_field(citation, "title", path, adapted)
                    .or_else(|| web_title(web_titles, &url));
                (url.clone(), title, Some(url))
            }
            "search_result_location" => {
                let Some(source) = string_field(citation, "source", path, adapted) else {
                    adapted.warn(path, "no `source`: dropped");
                    return None;
                };
                let title = string_field(citation, "title", path, adapted);
                let href = source.starts_with("http").then(|| source.clone());
                (format!("search_result:{source}"), title, href)
            }
            other => {
                adapted.warn(path, format!("unknown citation type {other:?}: dropped"));
                return None;
            }
        };
        let cited_text = string_field(citation, "cited_text", path, adapted);
        let position = match self.by_key.get(&key) {
            Some(&position) => position,
            None => {
                let source = Source {
                    id: Some(key.clone()),
                    index: u32::try_from(self.list.len() + 1).ok(),
                    title,
                    href,
                    excerpt: cited_text.clone(),
                    data: object(vec![
                        ("kind", kind.into()),
                        ("quotes", Value::Array(Vec::new())),
                    ]),
                };
                self.list.push(source);
                self.by_key.insert(key, self.list.len() - 1);
                self.list.len() - 1
            }
        };
        if let Some(source) = self.list.get_mut(position) {
            add_quote(source, citation, cited_text);
        }
        u32::try_from(position + 1).ok()
    }
}

/// Records a distinct `cited_text` and its location in `data.quotes`.
fn add_quote(source: &mut Source, citation: &Map<String, Value>, cited_text: Option<String>) {
    let Some(Value::Array(quotes)) = source.data.get_mut("quotes") else {
        return;
    };
    let text = cited_text.map_or(Value::Null, Value::String);
    if quotes.iter().any(|q| q.get("citedText") == Some(&text)) {
        return;
    }
    let mut quote = Map::new();
    quote.insert("citedText".into(), text);
    for field in LOCATION_FIELDS {
        if let Some(value) = citation.get(field) {
            quote.insert(field.into(), value.clone());
        }
    }
    quotes.push(Value::Object(quote));
}

/// The title `web_titles` gives `url` (the last one, if it is there twice).
fn web_title(web_titles: &[(&str, &str)], url: &str) -> Option<String> {
    let (_, title) = web_titles.iter().rev().find(|(u, _)| *u == url)?;
    Some((*title).to_owned())
}

/// (URL, page title) pairs from `web_search_tool_result` blocks.
fn web_result_titles(blocks: &[Value]) -> Vec<(&str, &str)> {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("web_search_tool_result"))
        .filter_map(|b| b.get("content")?.as_array())
        .flatten()
        .filter_map(|r| Some((r.get("url")?.as_str()?, r.get("title")?.as_str()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn char_citation(doc: u64, title: &str, cited: &str) -> Value {
        json!({"type": "char_location", "cited_text": cited, "document_index": doc,
               "document_title": title, "start_char_index": 0, "end_char_index": cited.len()})
    }

    #[test]
    fn every_location_type_becomes_a_source_and_repeats_reuse_it() {
        let response = json!({"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "text", "text": "Café sales rose"},
            {"type": "text", "text": " 12% in Q3", "citations": [
                char_citation(0, "Q3 report", "Sales rose 12%."),
                {"type": "page_location", "cited_text": "Table 4", "document_index": 1,
                 "document_title": "Appendix.pdf", "start_page_number": 4, "end_page_number": 5}
            ]},
            {"type": "text", "text": ", and "},
            {"type": "text", "text": "costs fell", "citations": [
                char_citation(0, "Q3 report", "Costs fell 3%."),
                {"type": "web_search_result_location", "url": "https://news.example/q3",
                 "title": null, "encrypted_index": "Eo8B", "cited_text": "Costs fell."},
                {"type": "search_result_location", "source": "https://kb.example/costs", "title": "KB",
                 "cited_text": "Costs…", "search_result_index": 0, "start_block_index": 0, "end_block_index": 1}
            ]},
            {"type": "text", "text": "."},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
                {"type": "web_search_result", "url": "https://news.example/q3", "title": "Q3 news", "page_age": "2 days"}
            ]}
        ]});
        let adapted = adapt(&response);
        assert_eq!(
            adapted.markdown,
            "Café sales rose 12% in Q3[1, 2], and costs fell[1, 3, 4]."
        );
        assert_eq!(adapted.warnings, []);
        let titles: Vec<Option<&str>> =
            adapted.sources.iter().map(|s| s.title.as_deref()).collect();
        assert_eq!(
            titles,
            [
                Some("Q3 report"),
                Some("Appendix.pdf"),
                Some("Q3 news"),
                Some("KB")
            ]
        );
        assert_eq!(
            adapted.sources[0].excerpt.as_deref(),
            Some("Sales rose 12%.")
        );
        assert_eq!(
            adapted.sources[0].data["quotes"][1]["citedText"],
            "Costs fell 3%."
        );
        assert_eq!(adapted.sources[1].data["quotes"][0]["start_page_number"], 4);
        assert_eq!(
            adapted.sources[2].href.as_deref(),
            Some("https://news.example/q3")
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert_eq!(out.citations.occurrences.len(), 5);
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
    }

    #[test]
    fn block_boundaries_inside_words_or_code_snap_after_them() {
        let response = json!({"content": [
            {"type": "text", "text": "Run `cargo", "citations": [char_citation(0, "Doc", "x")]},
            {"type": "text", "text": " test` to check. The multi"},
            {"type": "text", "text": "plier is 3.", "citations": []},
            {"type": "text", "text": "The multi", "citations": [char_citation(0, "Doc", "y")]},
            {"type": "text", "text": "plier"}
        ]});
        let adapted = adapt(&response);
        assert_eq!(
            adapted.markdown,
            "Run `cargo test`[1] to check. The multiplier is 3.The multiplier[1]"
        );
    }

    #[test]
    fn malformed_citations_warn_and_the_rest_survive() {
        let response = json!({"content": [
            {"type": "text", "text": "Claim", "citations": [
                char_citation(0, "Doc", "ok"),
                {"type": "char_location", "cited_text": "no index"},
                {"type": "web_search_result_location", "title": "no url"},
                {"type": "search_result_location", "title": "no source"},
                {"type": "telepathy"},
                "junk"
            ]},
            {"type": "text", "text": 42},
            "junk"
        ]});
        let adapted = adapt(&response);
        assert_eq!(adapted.markdown, "Claim[1]");
        let paths: Vec<&str> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "content[0].citations[1]",
                "content[0].citations[2]",
                "content[0].citations[3]",
                "content[0].citations[4]",
                "content[0].citations[5]",
                "content[1].text",
                "content[2]"
            ]
        );
        for wrong in [json!(null), json!({}), json!({"content": "text"})] {
            let adapted = adapt(&wrong);
            assert_eq!(adapted.markdown, "");
            assert!(!adapted.warnings.is_empty(), "{wrong}");
        }
    }
}
