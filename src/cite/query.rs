//! Legacy query links: `…/-/open-query?query=<URL-encoded JSON>`.
//!
//! LLMs copying these URLs often add a stray `)`, `]`, `}` or `.` after the
//! JSON; those are trimmed one at a time until the JSON parses.

use percent_encoding::{percent_decode_str, utf8_percent_encode, NON_ALPHANUMERIC};

use super::shortlink::url_path;

/// The path suffix that marks a legacy query link.
const QUERY_PATH_SUFFIX: &str = "/-/open-query";
/// How many trailing characters are trimmed before giving up.
const MAX_TRIMMED: usize = 16;

/// What a URL turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum QueryLink {
    /// A query link whose JSON parsed; `href` is the URL to follow (the
    /// original, or rebuilt without the stray characters).
    Query {
        query: serde_json::Value,
        href: String,
    },
    /// A query link whose JSON never parsed.
    Malformed,
}

/// Reads `url` as a legacy query link; `None` when it is not one.
pub(crate) fn parse_query_link(url: &str) -> Option<QueryLink> {
    if !url_path(url)?.ends_with(QUERY_PATH_SUFFIX) {
        return None;
    }
    let query_start = url.find('?')? + 1;
    let query_end = url[query_start..]
        .find('#')
        .map_or(url.len(), |i| query_start + i);
    let mut pair_start = query_start;
    let value_start = loop {
        let pair = &url[pair_start..query_end];
        if pair.starts_with("query=") {
            break pair_start + "query=".len();
        }
        pair_start += pair.find('&')? + 1;
    };
    let value_end = url[value_start..query_end]
        .find('&')
        .map_or(query_end, |i| value_start + i);
    // A JSON text with a raw `&` inside splits at it: retry with the rest.
    let parsed = parse_trimmed(&url[value_start..value_end])
        .or_else(|| parse_trimmed(&url[value_start..query_end]));
    let Some((query, trimmed)) = parsed else {
        return Some(QueryLink::Malformed);
    };
    let href = if trimmed {
        // (`serde_json::to_string`, not `Value`'s `Display`, here and for
        // the key: the same compact text, without compiling `{:#}`'s pretty
        // printer into the npm package's wasm.)
        let encoded = utf8_percent_encode(
            &serde_json::to_string(&query).unwrap_or_default(),
            NON_ALPHANUMERIC,
        )
        .to_string();
        format!("{}{encoded}", &url[..value_start])
    } else {
        url.to_owned()
    };
    Some(QueryLink::Query { query, href })
}

/// Decodes and parses `encoded`, trimming stray trailing characters;
/// whether any were trimmed.
fn parse_trimmed(encoded: &str) -> Option<(serde_json::Value, bool)> {
    let decoded = percent_decode_str(encoded).decode_utf8_lossy();
    if let Some(parsed) = parse_before_strays(&decoded) {
        return Some(parsed);
    }
    let mut json: &str = &decoded;
    for _ in 0..=MAX_TRIMMED {
        if json.is_empty() {
            return None;
        }
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
            return Some((value, json.len() < decoded.len()));
        }
        let last = json.chars().next_back()?;
        if !is_stray(last) {
            return None;
        }
        json = &json[..json.len() - last.len_utf8()];
    }
    None
}

/// The common case of [`parse_trimmed`] in one parse: a JSON value, then
/// only stray characters (at most [`MAX_TRIMMED`]). `None` sends the text
/// to trimming one character at a time.
fn parse_before_strays(json: &str) -> Option<(serde_json::Value, bool)> {
    let mut values = serde_json::Deserializer::from_str(json).into_iter::<serde_json::Value>();
    let value = values.next()?.ok()?;
    let rest = &json[values.byte_offset()..];
    let strays = rest.trim_start();
    let all_stray = strays.chars().count() <= MAX_TRIMMED && strays.chars().all(is_stray);
    all_stray.then_some((value, !strays.is_empty()))
}

/// What LLMs leave after a query link's JSON.
fn is_stray(c: char) -> bool {
    matches!(c, ')' | ']' | '}' | '.' | ',' | ';' | '"' | '\'') || c.is_whitespace()
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
            Some(QueryLink::Query {
                query: json!({"metric": "revenue"}),
                href: format!("{BASE}%7B%22metric%22%3A%22revenue%22%7D")
            })
        );
        let raw = r#"/-/open-query?x=1&query={"a":[1,2]}#frag"#;
        assert_eq!(
            parse_query_link(raw),
            Some(QueryLink::Query {
                query: json!({"a": [1, 2]}),
                href: raw.to_owned()
            })
        );
    }

    #[test]
    fn trims_stray_trailing_characters() {
        for junk in [")", "]", "}", ".", "))", "%7D)", "%7D%7D."] {
            assert_eq!(
                parse(&format!("%7B%22a%22%3A1%7D{junk}")),
                Some(QueryLink::Query {
                    query: json!({"a": 1}),
                    href: format!("{BASE}%7B%22a%22%3A1%7D")
                }),
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
