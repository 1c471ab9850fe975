//! Legacy query links: `…/-/open-query?query=<URL-encoded JSON>`.
//!
//! LLMs copying these URLs often add a stray `)`, `]`, `}` or `.` after the
//! JSON; those are trimmed one at a time until the JSON parses.

use percent_encoding::percent_decode_str;

use super::shortlink::url_path;

/// The path suffix that marks a legacy query link.
const QUERY_PATH_SUFFIX: &str = "/-/open-query";
/// How many trailing characters are trimmed before giving up.
const MAX_TRIMMED: usize = 16;

/// What a URL turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum QueryLink {
    /// A query link whose JSON parsed.
    Query(serde_json::Value),
    /// A query link whose JSON never parsed.
    Malformed,
}

/// Reads `url` as a legacy query link; `None` when it is not one.
pub(crate) fn parse_query_link(url: &str) -> Option<QueryLink> {
    if !url_path(url)?.ends_with(QUERY_PATH_SUFFIX) {
        return None;
    }
    let query_string = url.split_once('?')?.1;
    let query_string = query_string
        .split_once('#')
        .map_or(query_string, |(q, _)| q);
    let value = query_string
        .split('&')
        .find_map(|pair| pair.strip_prefix("query="))?;
    // A JSON text with a raw `&` inside splits at it: retry with the rest.
    let rest_of_string = &query_string[query_string.find("query=")? + "query=".len()..];
    let parsed = parse_trimmed(value).or_else(|| parse_trimmed(rest_of_string));
    Some(parsed.map_or(QueryLink::Malformed, QueryLink::Query))
}

/// Decodes and parses `encoded`, trimming stray trailing characters.
fn parse_trimmed(encoded: &str) -> Option<serde_json::Value> {
    let decoded = percent_decode_str(encoded).decode_utf8_lossy();
    let mut json: &str = &decoded;
    for _ in 0..=MAX_TRIMMED {
        if json.is_empty() {
            return None;
        }
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
            return Some(value);
        }
        let last = json.chars().next_back()?;
        if !matches!(last, ')' | ']' | '}' | '.' | ',' | ';' | '"' | '\'') && !last.is_whitespace()
        {
            return None;
        }
        json = &json[..json.len() - last.len_utf8()];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BASE: &str = "https://app.example/-/open-query?query=";

    fn parse(suffix: &str) -> Option<QueryLink> {
        parse_query_link(&format!("{BASE}{suffix}"))
    }

    #[test]
    fn decodes_the_json() {
        assert_eq!(
            parse("%7B%22metric%22%3A%22revenue%22%7D"),
            Some(QueryLink::Query(json!({"metric": "revenue"})))
        );
        assert_eq!(
            parse_query_link(r#"/-/open-query?x=1&query={"a":[1,2]}#frag"#),
            Some(QueryLink::Query(json!({"a": [1, 2]})))
        );
    }

    #[test]
    fn trims_stray_trailing_characters() {
        for junk in [")", "]", "}", ".", "))", "%7D)", "%7D%7D."] {
            assert_eq!(
                parse(&format!("%7B%22a%22%3A1%7D{junk}")),
                Some(QueryLink::Query(json!({"a": 1}))),
                "{junk}"
            );
        }
    }

    #[test]
    fn never_parsing_json_is_malformed() {
        assert_eq!(parse("%7B%22a%22%3A"), Some(QueryLink::Malformed));
        assert_eq!(parse(""), Some(QueryLink::Malformed));
        assert_eq!(parse("not-json"), Some(QueryLink::Malformed));
    }

    #[test]
    fn other_urls_are_not_query_links() {
        assert_eq!(
            parse_query_link("https://app.example/-/open-querys?query=%7B%7D"),
            None
        );
        assert_eq!(parse_query_link("https://app.example/-/open-query"), None);
        assert_eq!(
            parse_query_link("https://app.example/-/open-query?q=1"),
            None
        );
        assert_eq!(
            parse_query_link("javascript:/-/open-query?query=%7B%7D"),
            None
        );
    }
}
