//! Cite tags: `<cite id="call_1">label</cite>`, as LLMs write them.
//!
//! pulldown-cmark hands each inline tag over as one `InlineHtml` event; this
//! module reads such an event as an opening or closing cite tag. Pairing
//! opens with closes is the adaptor's job (it knows the paragraph).

/// A raw HTML tag that is a cite tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CiteTag {
    /// `<cite …>`; `id` is `None` when the tag has no (non-empty) `id`.
    /// `self_closing` for `<cite id="x"/>`, which cites with an empty label.
    Open {
        id: Option<String>,
        self_closing: bool,
    },
    /// `</cite>`.
    Close,
}

/// Reads `html` (one raw inline HTML tag) as a cite tag, in any letter case,
/// with `id="x"`, `id='x'` or `id=x` among any other attributes.
pub(crate) fn parse_cite_tag(html: &str) -> Option<CiteTag> {
    let rest = html.strip_prefix('<')?;
    if let Some(close) = rest.strip_prefix('/') {
        let name = close.get(..4)?;
        let after = close[4..].trim_start();
        return (name.eq_ignore_ascii_case("cite") && after == ">").then_some(CiteTag::Close);
    }
    let name = rest.get(..4)?;
    if !name.eq_ignore_ascii_case("cite") {
        return None;
    }
    let attrs = &rest[4..];
    if !attrs.starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/') {
        return None; // `<citex>` is another tag
    }
    let attrs = attrs.trim_end().strip_suffix('>')?;
    let (attrs, self_closing) = match attrs.trim_end().strip_suffix('/') {
        Some(a) => (a, true),
        None => (attrs, false),
    };
    let id = attributes(attrs)
        .find(|(name, _)| name.eq_ignore_ascii_case("id"))
        .map(|(_, value)| decode_basic_entities(value.trim()))
        .filter(|id| !id.is_empty());
    Some(CiteTag::Open { id, self_closing })
}

/// Iterates `name=value` pairs of an attribute list (values unquoted).
fn attributes(mut s: &str) -> impl Iterator<Item = (&str, &str)> {
    std::iter::from_fn(move || {
        s = s.trim_start();
        if s.is_empty() {
            return None;
        }
        let name_end = s
            .find(|c: char| c.is_ascii_whitespace() || c == '=')
            .unwrap_or(s.len());
        let name = &s[..name_end];
        s = s[name_end..].trim_start();
        let Some(after_eq) = s.strip_prefix('=') else {
            return Some((name, ""));
        };
        s = after_eq.trim_start();
        let value = match s.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = &s[1..];
                let end = body.find(q).unwrap_or(body.len());
                s = body.get(end + 1..).unwrap_or("");
                &body[..end]
            }
            _ => {
                let end = s.find(|c: char| c.is_ascii_whitespace()).unwrap_or(s.len());
                let v = &s[..end];
                s = &s[end..];
                v
            }
        };
        Some((name, value))
    })
}

/// Decodes the few entities an id could plausibly contain.
fn decode_basic_entities(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(id: &str) -> Option<CiteTag> {
        Some(CiteTag::Open {
            id: Some(id.to_owned()),
            self_closing: false,
        })
    }

    #[test]
    fn reads_ids_in_every_quoting_and_case() {
        assert_eq!(parse_cite_tag(r#"<cite id="call_1">"#), open("call_1"));
        assert_eq!(parse_cite_tag("<cite id='call_1'>"), open("call_1"));
        assert_eq!(parse_cite_tag("<CITE ID=call_1>"), open("call_1"));
        assert_eq!(
            parse_cite_tag("<cite\n  data-x=\"1\"   id = \"a b\" >"),
            open("a b")
        );
        assert_eq!(
            parse_cite_tag(r#"<cite title="x" id="q&amp;a">"#),
            open("q&a")
        );
        assert_eq!(
            parse_cite_tag(r#"<cite id="x"/>"#),
            Some(CiteTag::Open {
                id: Some("x".into()),
                self_closing: true
            })
        );
    }

    #[test]
    fn tags_without_id_and_closing_tags() {
        let no_id = Some(CiteTag::Open {
            id: None,
            self_closing: false,
        });
        assert_eq!(parse_cite_tag("<cite>"), no_id);
        assert_eq!(parse_cite_tag(r#"<cite id="">"#), no_id);
        assert_eq!(parse_cite_tag("</cite>"), Some(CiteTag::Close));
        assert_eq!(parse_cite_tag("</CITE >"), Some(CiteTag::Close));
    }

    #[test]
    fn other_tags_are_not_cite_tags() {
        for html in [
            "<citex id=\"a\">",
            "<span>",
            "</citex>",
            "<ci",
            "<!-- cite -->",
            "<",
        ] {
            assert_eq!(parse_cite_tag(html), None, "{html}");
        }
    }
}
