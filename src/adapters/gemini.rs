//! Gemini `generateContent` responses with grounding (Google Search or a
//! retrieval tool): `candidates[0].groundingMetadata`.
//!
//! The answer is the concatenated `text` of `candidates[0].content.parts`.
//! Each `groundingChunks[i]` (`web` or `retrievedContext`: `uri`, `title`,
//! `text`) becomes source `i + 1`; each `groundingSupports` entry puts a
//! marker listing its `groundingChunkIndices` after its `segment`.
//!
//! **Offsets are UTF-8 byte offsets** into the part named by
//! `segment.partIndex` (default 0): the API reference's `Segment` says
//! "`startIndex` … measured in bytes" and "`endIndex` … measured in bytes".
//! Before trusting them, the adapter checks that `segment.text` is what lies
//! there; when it is not (or the offsets cut a character), it looks for
//! `segment.text` in the part and takes the occurrence nearest the given
//! offset, and drops the support with a warning when the text is nowhere.
//! The marker then goes to the nearest safe place at or after the segment's
//! end: never inside a character, word, code, link or URL (see
//! `insert.rs`).
//!
//! Confidence goes into the index through each source's `data`:
//! `confidence` is the highest `confidenceScores` value any support gave the
//! chunk, and `supports` lists `{text, confidence}` per supported segment.
//! `data.queries` keeps `webSearchQueries` on every source of a web search.
//!
//! # Example
//! ```
//! use citemark::adapters::gemini;
//! use serde_json::json;
//!
//! let response = json!({"candidates": [{
//!     "content": {"parts": [{"text": "Paris is the capital of France. It is large."}]},
//!     "groundingMetadata": {
//!         "groundingChunks": [{"web": {"uri": "https://en.wikipedia.org/wiki/Paris", "title": "wikipedia.org"}}],
//!         "groundingSupports": [{
//!             "segment": {"startIndex": 0, "endIndex": 31, "text": "Paris is the capital of France."},
//!             "groundingChunkIndices": [0], "confidenceScores": [0.97]
//!         }]
//!     }
//! }]});
//! let adapted = gemini::adapt(&response);
//! assert_eq!(adapted.markdown, "Paris is the capital of France.[1] It is large.");
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("wikipedia.org"));
//! assert_eq!(adapted.sources[0].data["confidence"], 0.97);
//! ```

use std::ops::Range;

use serde_json::{Map, Value};

use super::insert::{self, Edit};
use super::json::{array_field, as_index, expect_object, field_path, object, string_field, ROOT};
use super::Adapted;
use crate::source::Source;

/// Turns a Gemini response into markdown with markers and numbered sources.
///
/// Never fails: missing parts give empty markdown, unusable chunks and
/// supports are skipped, and each problem is reported in
/// [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let Some(candidate) = first_candidate(response, &mut adapted) else {
        return adapted;
    };
    let parts = text_parts(candidate, &mut adapted);
    let text: String = parts.iter().map(|part| part.text.as_str()).collect();
    let metadata_path = "candidates[0].groundingMetadata";
    let metadata = match candidate.get("groundingMetadata") {
        Some(value) => expect_object(value, metadata_path, "grounding metadata", &mut adapted),
        None => None,
    };
    let Some(metadata) = metadata else {
        adapted.markdown = text;
        return adapted;
    };
    let queries = array_field(metadata, "webSearchQueries", metadata_path, &mut adapted).to_vec();
    let chunks_path = field_path(metadata_path, "groundingChunks");
    let chunks = array_field(metadata, "groundingChunks", metadata_path, &mut adapted);
    adapted.sources = chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| chunk_source(chunk, i, &chunks_path, &queries, &mut adapted))
        .collect();
    let supports_path = field_path(metadata_path, "groundingSupports");
    let mut edits = Vec::new();
    for (i, support) in array_field(metadata, "groundingSupports", metadata_path, &mut adapted)
        .iter()
        .enumerate()
    {
        let path = format!("{supports_path}[{i}]");
        if let Some(edit) = support_edit(support, &path, &parts, &mut adapted) {
            edits.push(edit);
        }
    }
    adapted.markdown = insert::apply(&text, edits);
    adapted
}

/// One text part and where it starts in the concatenated answer.
struct Part {
    text: String,
    start: usize,
}

fn first_candidate<'a>(
    response: &'a Value,
    adapted: &mut Adapted,
) -> Option<&'a Map<String, Value>> {
    let object = expect_object(response, ROOT, "a generateContent response", adapted)?;
    let candidates = array_field(object, "candidates", ROOT, adapted);
    match candidates.first() {
        Some(candidate) => expect_object(candidate, "candidates[0]", "a candidate", adapted),
        None => {
            adapted.warn("candidates", "no candidate: nothing to render");
            None
        }
    }
}

/// The candidate's parts in order; parts without text (function calls,
/// inline data) count as empty so that `partIndex` still lines up.
fn text_parts(candidate: &Map<String, Value>, adapted: &mut Adapted) -> Vec<Part> {
    let path = "candidates[0].content";
    let Some(content) = candidate.get("content") else {
        adapted.warn(path, "missing: the answer has no text");
        return Vec::new();
    };
    let Some(content) = expect_object(content, path, "content", adapted) else {
        return Vec::new();
    };
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, part) in array_field(content, "parts", path, adapted)
        .iter()
        .enumerate()
    {
        let text = match part.as_object() {
            Some(part) => string_field(part, "text", &format!("{path}.parts[{i}]"), adapted),
            None => None,
        }
        .unwrap_or_default();
        parts.push(Part { start, text });
        start += parts.last().map_or(0, |p| p.text.len());
    }
    parts
}

fn chunk_source(
    chunk: &Value,
    i: usize,
    chunks_path: &str,
    queries: &[Value],
    adapted: &mut Adapted,
) -> Source {
    let path = format!("{chunks_path}[{i}]");
    let mut source = Source {
        index: u32::try_from(i + 1).ok(),
        ..Source::default()
    };
    let mut data = Map::new();
    let body = chunk.as_object().and_then(|chunk| {
        ["web", "retrievedContext"]
            .into_iter()
            .find_map(|kind| Some((kind, chunk.get(kind)?.as_object()?)))
    });
    match body {
        Some((kind, body)) => {
            let body_path = format!("{path}.{kind}");
            source.href = string_field(body, "uri", &body_path, adapted);
            source.title = string_field(body, "title", &body_path, adapted);
            source.excerpt = string_field(body, "text", &body_path, adapted);
            data.insert("kind".into(), kind.into());
            if kind == "web" && !queries.is_empty() {
                data.insert("queries".into(), Value::Array(queries.to_vec()));
            }
        }
        None => adapted.warn(
            path,
            "expected a chunk with `web` or `retrievedContext`: kept as an untitled source",
        ),
    }
    source.data = Value::Object(data);
    source
}

/// The marker edit for one grounding support, recording its confidence on
/// the sources it cites.
fn support_edit(
    support: &Value,
    path: &str,
    parts: &[Part],
    adapted: &mut Adapted,
) -> Option<Edit> {
    let support = expect_object(support, path, "a grounding support", adapted)?;
    let numbers = cited_numbers(support, path, adapted);
    if numbers.is_empty() {
        adapted.warn(path, "cites no usable grounding chunk: dropped");
        return None;
    }
    let segment_path = format!("{path}.segment");
    let Some(segment) = support.get("segment") else {
        adapted.warn(path, "no segment: dropped");
        return None;
    };
    let segment = expect_object(segment, &segment_path, "a segment", adapted)?;
    let part_index = segment.get("partIndex").and_then(as_index).unwrap_or(0);
    let Some(part) = parts.get(part_index) else {
        adapted.warn(
            &segment_path,
            format!("partIndex {part_index} names no text part: dropped"),
        );
        return None;
    };
    let range = locate_segment(segment, &part.text, &segment_path, adapted)?;
    let segment_text = part.text.get(range.clone()).unwrap_or_default().to_owned();
    let scores = support.get("confidenceScores").and_then(Value::as_array);
    for &(n, position) in &numbers {
        let score = scores.and_then(|s| s.get(position)).and_then(Value::as_f64);
        record_support(adapted, n, &segment_text, score);
    }
    let at = part.start + range.end;
    Some(Edit::insert(
        at,
        numbers.into_iter().map(|(n, _)| n).collect(),
    ))
}

/// `groundingChunkIndices` as source numbers (index + 1), each with its
/// position in the list (for `confidenceScores`); bad entries warn.
fn cited_numbers(
    support: &Map<String, Value>,
    path: &str,
    adapted: &mut Adapted,
) -> Vec<(u32, usize)> {
    let sources = adapted.sources.len();
    let list = array_field(support, "groundingChunkIndices", path, adapted).to_vec();
    let mut numbers = Vec::new();
    for (k, value) in list.iter().enumerate() {
        match as_index(value)
            .filter(|&i| i < sources)
            .and_then(|i| u32::try_from(i + 1).ok())
        {
            Some(n) => numbers.push((n, k)),
            None => adapted.warn(
                format!("{path}.groundingChunkIndices[{k}]"),
                format!(
                    "{} is not the index of one of the {sources} grounding chunks",
                    serde_json::to_string(value).unwrap_or_default()
                ),
            ),
        }
    }
    numbers
}

/// The byte range of the segment in its part: the given offsets when
/// `segment.text` is there, else the nearest occurrence of that text.
fn locate_segment(
    segment: &Map<String, Value>,
    part: &str,
    path: &str,
    adapted: &mut Adapted,
) -> Option<Range<usize>> {
    let start = segment.get("startIndex").and_then(as_index).unwrap_or(0);
    let end = segment.get("endIndex").and_then(as_index);
    let expected = segment.get("text").and_then(Value::as_str);
    if let Some(end) = end.filter(|&end| start <= end && end <= part.len()) {
        // Without a text to check, offsets that cut a character are still
        // used: the marker is snapped past the character anyway.
        if expected.is_none() || part.get(start..end) == expected {
            return Some(start..end);
        }
    }
    let Some(expected) = expected.filter(|t| !t.is_empty()) else {
        adapted.warn(
            path,
            "offsets outside the text and no segment text to find: dropped",
        );
        return None;
    };
    let nearest = part
        .match_indices(expected)
        .map(|(found, _)| found)
        .min_by_key(|found| found.abs_diff(start));
    match nearest {
        Some(found) => {
            adapted.warn(
                path,
                format!("offsets do not match the segment text; found it at byte {found}"),
            );
            Some(found..found + expected.len())
        }
        None => {
            adapted.warn(path, "segment text not found in the answer: dropped");
            None
        }
    }
}

/// Adds a supported segment and its confidence to source `number`'s data.
fn record_support(adapted: &mut Adapted, number: u32, text: &str, confidence: Option<f64>) {
    let Some(source) = (number as usize)
        .checked_sub(1)
        .and_then(|i| adapted.sources.get_mut(i))
    else {
        return;
    };
    let Value::Object(data) = &mut source.data else {
        return;
    };
    if let Some(score) = confidence {
        let best = data.get("confidence").and_then(Value::as_f64);
        if best.is_none_or(|best| score > best) {
            data.insert("confidence".into(), score.into());
        }
    }
    let supports = data
        .entry("supports")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = supports {
        list.push(object(vec![
            ("text", text.into()),
            ("confidence", confidence.into()),
        ]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn response(text: &str, supports: Value) -> Value {
        json!({"candidates": [{
            "content": {"role": "model", "parts": [{"text": text}]},
            "groundingMetadata": {
                "webSearchQueries": ["capital of france"],
                "groundingChunks": [
                    {"web": {"uri": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/a", "title": "wikipedia.org"}},
                    {"web": {"uri": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/b", "title": "britannica.com"}}
                ],
                "groundingSupports": supports
            }
        }]})
    }

    fn support(start: usize, end: usize, text: &str, chunks: Value, scores: Value) -> Value {
        json!({"segment": {"startIndex": start, "endIndex": end, "text": text},
               "groundingChunkIndices": chunks, "confidenceScores": scores})
    }

    #[test]
    fn byte_offsets_after_non_ascii_text() {
        // "Café " is 6 bytes but 5 characters: a character-offset reading
        // would put the marker one byte early, inside "Crème".
        let text = "Café crème coûte 3 €. Le thé aussi.";
        let first = "Café crème coûte 3 €.";
        assert_eq!((first.len(), first.chars().count()), (26, 21));
        let adapted = adapt(&response(
            text,
            json!([support(0, 26, first, json!([0]), json!([0.9]))]),
        ));
        assert_eq!(adapted.markdown, "Café crème coûte 3 €.[1] Le thé aussi.");
        assert_eq!(adapted.warnings, []);
    }

    #[test]
    fn several_chunks_merge_into_one_marker_with_confidence_in_data() {
        let text = "Paris is the capital. It is big.";
        let adapted = adapt(&response(
            text,
            json!([
                support(
                    0,
                    21,
                    "Paris is the capital.",
                    json!([1, 0]),
                    json!([0.8, 0.95])
                ),
                support(22, 32, "It is big.", json!([0]), json!([0.5]))
            ]),
        ));
        assert_eq!(
            adapted.markdown,
            "Paris is the capital.[1, 2] It is big.[1]"
        );
        assert_eq!(adapted.sources[0].data["confidence"], 0.95);
        assert_eq!(adapted.sources[1].data["confidence"], 0.8);
        assert_eq!(adapted.sources[0].data["supports"][1]["text"], "It is big.");
        assert_eq!(adapted.sources[0].data["queries"][0], "capital of france");
        assert_eq!(adapted.sources[1].index, Some(2));
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert!(out.citations.occurrences.iter().all(|o| o.resolved));
        assert_eq!(out.citations.occurrences.len(), 3);
    }

    #[test]
    fn mismatched_offsets_are_found_by_text_or_dropped() {
        let text = "Intro. Paris is the capital. End.";
        let adapted = adapt(&response(
            text,
            json!([
                support(0, 5, "Paris is the capital.", json!([0]), json!([0.9])),
                support(0, 4, "Not in the answer.", json!([1]), json!([0.9]))
            ]),
        ));
        assert_eq!(adapted.markdown, "Intro. Paris is the capital.[1] End.");
        let paths: Vec<&str> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "candidates[0].groundingMetadata.groundingSupports[0].segment",
                "candidates[0].groundingMetadata.groundingSupports[1].segment"
            ]
        );
    }

    #[test]
    fn offsets_cutting_a_character_or_a_code_span_snap_after_it() {
        // End offset 3 falls inside "é" of "thé"; the segment text is absent,
        // so the offsets are used and snapped to the end of the word.
        let adapted = adapt(&response(
            "Le thé est `chaud` ici.",
            json!([
                {"segment": {"endIndex": 6}, "groundingChunkIndices": [0]},
                {"segment": {"startIndex": 0, "endIndex": 14}, "groundingChunkIndices": [1]}
            ]),
        ));
        assert_eq!(adapted.markdown, "Le thé[1] est `chaud`[2] ici.");
    }

    #[test]
    fn part_index_offsets_are_relative_to_their_part() {
        let response = json!({"candidates": [{
            "content": {"parts": [{"text": "First part. "}, {"text": "Second part."}]},
            "groundingMetadata": {
                "groundingChunks": [{"retrievedContext": {"uri": "gs://b/doc.pdf", "title": "doc.pdf", "text": "…"}}],
                "groundingSupports": [{"segment": {"partIndex": 1, "startIndex": 0, "endIndex": 12, "text": "Second part."}, "groundingChunkIndices": [0]}]
            }
        }]});
        let adapted = adapt(&response);
        assert_eq!(adapted.markdown, "First part. Second part.[1]");
        assert_eq!(adapted.sources[0].excerpt.as_deref(), Some("…"));
        assert_eq!(adapted.sources[0].data["kind"], "retrievedContext");
    }

    #[test]
    fn malformed_payloads_keep_what_they_can() {
        let adapted = adapt(&json!({"candidates": [{
            "content": {"parts": [{"text": "Grounded claim."}]},
            "groundingMetadata": {
                "groundingChunks": [{"web": {"uri": 5, "title": "ok.example"}}, "junk"],
                "groundingSupports": [
                    {"segment": {"startIndex": 0, "endIndex": 15}, "groundingChunkIndices": [0, 7, -1]},
                    {"segment": "bad", "groundingChunkIndices": [0]},
                    {"segment": {"startIndex": 0, "endIndex": 9999}, "groundingChunkIndices": [0]}
                ]
            }
        }]}));
        assert_eq!(adapted.markdown, "Grounded claim.[1]");
        assert_eq!(adapted.sources.len(), 2);
        assert_eq!(adapted.sources[0].title.as_deref(), Some("ok.example"));
        assert_eq!(adapted.sources[0].href, None);
        let paths: Vec<&str> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert!(paths.contains(&"candidates[0].groundingMetadata.groundingChunks[0].web.uri"));
        assert!(paths.contains(&"candidates[0].groundingMetadata.groundingChunks[1]"));
        assert!(paths.contains(
            &"candidates[0].groundingMetadata.groundingSupports[0].groundingChunkIndices[1]"
        ));
        assert!(paths.contains(&"candidates[0].groundingMetadata.groundingSupports[1].segment"));
        assert!(paths.contains(&"candidates[0].groundingMetadata.groundingSupports[2].segment"));
        for wrong in [
            json!(null),
            json!([]),
            json!({"candidates": "x"}),
            json!({"candidates": []}),
        ] {
            let adapted = adapt(&wrong);
            assert_eq!(adapted.markdown, "");
            assert!(!adapted.warnings.is_empty(), "{wrong}");
        }
    }

    #[test]
    fn without_grounding_the_text_passes_through() {
        let adapted =
            adapt(&json!({"candidates": [{"content": {"parts": [{"text": "Hi [1]."}]}}]}));
        assert_eq!(adapted.markdown, "Hi [1].");
        assert_eq!(adapted.sources, []);
        assert_eq!(adapted.warnings, []);
    }
}
