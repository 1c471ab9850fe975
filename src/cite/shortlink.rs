//! Short links: URLs whose path matches a configured template, such as
//! `/-/ai/conversations/{conversation}/call/{call}`, cite the captured key.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// A URL path template that marks a link as a citation ("short link").
///
/// Captures are written `{name}` and match one or more of `[A-Za-z0-9_-]`;
/// one of them is the citation key. The template matches the URL's path on
/// any host (or a root-relative URL), with an optional trailing slash; a
/// query string or fragment after it is ignored.
///
/// Anchoring is the template's choice:
/// - a template starting with `/` matches the whole path, from its first `/`;
/// - a template starting with `**/` matches the end of the path after any
///   prefix of whole segments, none included: `**/-/ai/{call}` matches
///   `/-/ai/c1` and `/org/project/-/ai/c1`, not `/x-/ai/c1`. This is how an
///   app served under `/{organization}/{project}/` is matched.
///
/// # Examples
/// ```
/// use citemark::ShortLinkPattern;
///
/// let p = ShortLinkPattern::new("**/-/ai/conversations/{conversation}/call/{call}", "call").unwrap();
/// let m = p.match_url("https://app.example/org/proj/-/ai/conversations/c9/call/call_1/").unwrap();
/// assert_eq!(m.key, "call_1");
/// assert_eq!(m.captures["conversation"], "c9");
/// assert!(p.match_url("https://app.example/-/ai/conversations/c9/call/call_1").is_some());
/// assert!(p.match_url("https://app.example/other/path").is_none());
///
/// let anchored = ShortLinkPattern::new("/-/ai/conversations/{conversation}/call/{call}", "call").unwrap();
/// assert!(anchored.match_url("https://app.example/org/proj/-/ai/conversations/c9/call/call_1").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ShortLinkPatternSpec", into = "ShortLinkPatternSpec")]
pub struct ShortLinkPattern {
    template: String,
    key: String,
    /// Whether the template was written `**/…`: any prefix of whole path
    /// segments may come before it.
    any_prefix: bool,
    parts: Vec<TemplatePart>,
}

/// How a template says "after any path prefix".
const ANY_PREFIX: &str = "**";

#[derive(Debug, Clone, PartialEq, Eq)]
enum TemplatePart {
    Literal(String),
    Capture(String),
}

/// The JSON shape of a [`ShortLinkPattern`]: `{"template": …, "key": …}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShortLinkPatternSpec {
    template: String,
    key: String,
}

impl TryFrom<ShortLinkPatternSpec> for ShortLinkPattern {
    type Error = Error;
    fn try_from(spec: ShortLinkPatternSpec) -> Result<Self, Error> {
        ShortLinkPattern::new(&spec.template, &spec.key)
    }
}

impl From<ShortLinkPattern> for ShortLinkPatternSpec {
    fn from(p: ShortLinkPattern) -> Self {
        ShortLinkPatternSpec {
            template: p.template,
            key: p.key,
        }
    }
}

/// A short-link URL that matched a [`ShortLinkPattern`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortLinkMatch {
    /// The value of the pattern's key capture.
    pub key: String,
    /// Every capture, the key included.
    pub captures: BTreeMap<String, String>,
}

const PATTERNS_FIELD: &str = "shortLinkPatterns";

impl ShortLinkPattern {
    /// The default pattern: `**/-/ai/conversations/{conversation}/call/{call}`
    /// keyed by `call`, which matches after any path prefix (the app may be
    /// served under `/{organization}/{project}/`).
    pub fn default_pattern() -> Self {
        ShortLinkPattern::new("**/-/ai/conversations/{conversation}/call/{call}", "call")
            .expect("the built-in pattern is valid")
    }

    /// Builds a pattern from a path template and the name of its key capture.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] naming `shortLinkPatterns` when the template
    /// does not start with `/` or `**/`, has a malformed, duplicate or
    /// adjacent capture, or has no capture named `key`.
    pub fn new(template: &str, key: &str) -> Result<Self, Error> {
        let (any_prefix, path) = match template.strip_prefix(ANY_PREFIX) {
            Some(path) => (true, path),
            None => (false, template),
        };
        if !path.starts_with('/') {
            return Err(Error::invalid(
                PATTERNS_FIELD,
                format!("template {template:?} must start with '/' or '**/'"),
            ));
        }
        let mut parts = Vec::new();
        let mut rest = path;
        while let Some(open) = rest.find('{') {
            if rest[..open].contains('}') {
                break; // reported as a stray '}' below
            }
            if open > 0 {
                parts.push(TemplatePart::Literal(rest[..open].to_owned()));
            } else if matches!(parts.last(), Some(TemplatePart::Capture(_))) {
                return Err(Error::invalid(
                    PATTERNS_FIELD,
                    format!("template {template:?} has two captures with nothing between them"),
                ));
            }
            let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| {
                Error::invalid(
                    PATTERNS_FIELD,
                    format!("template {template:?} has an unclosed '{{'"),
                )
            })?;
            let name = &rest[open + 1..close];
            let valid_name = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid_name {
                return Err(Error::invalid(
                    PATTERNS_FIELD,
                    format!("template {template:?} has an invalid capture name {name:?}"),
                ));
            }
            if parts
                .iter()
                .any(|p| matches!(p, TemplatePart::Capture(n) if n == name))
            {
                return Err(Error::invalid(
                    PATTERNS_FIELD,
                    format!("template {template:?} captures {name:?} twice"),
                ));
            }
            parts.push(TemplatePart::Capture(name.to_owned()));
            rest = &rest[close + 1..];
        }
        if rest.contains('}')
            || parts
                .iter()
                .any(|p| matches!(p, TemplatePart::Literal(l) if l.contains('}')))
        {
            return Err(Error::invalid(
                PATTERNS_FIELD,
                format!("template {template:?} has a stray '}}'"),
            ));
        }
        if !rest.is_empty() {
            parts.push(TemplatePart::Literal(rest.to_owned()));
        }
        if !parts
            .iter()
            .any(|p| matches!(p, TemplatePart::Capture(n) if n == key))
        {
            return Err(Error::invalid(
                PATTERNS_FIELD,
                format!("template {template:?} has no capture named {key:?} to use as the key"),
            ));
        }
        Ok(ShortLinkPattern {
            template: template.to_owned(),
            key: key.to_owned(),
            any_prefix,
            parts,
        })
    }

    /// The longest literal part of the template: every matching URL
    /// contains it, so it filters most links out cheaply.
    pub(crate) fn longest_literal(&self) -> &str {
        self.parts
            .iter()
            .filter_map(|p| match p {
                TemplatePart::Literal(l) => Some(l.as_str()),
                TemplatePart::Capture(_) => None,
            })
            .max_by_key(|l| l.len())
            .unwrap_or("/")
    }

    /// The path template this pattern was built from.
    pub fn template(&self) -> &str {
        &self.template
    }

    /// Matches an absolute `http(s)` URL or a root-relative one.
    pub fn match_url(&self, url: &str) -> Option<ShortLinkMatch> {
        let path = url_path(url)?;
        let path = path
            .strip_suffix('/')
            .filter(|p| !p.is_empty())
            .unwrap_or(path);
        if !self.any_prefix {
            return self.match_path(path);
        }
        // The template starts with '/', so it can only begin where a segment does.
        path.match_indices('/')
            .find_map(|(start, _)| self.match_path(&path[start..]))
    }

    /// Matches the template against the whole of `path`.
    fn match_path(&self, path: &str) -> Option<ShortLinkMatch> {
        let mut captures = BTreeMap::new();
        let mut rest = path;
        for part in &self.parts {
            match part {
                TemplatePart::Literal(lit) => rest = rest.strip_prefix(lit.as_str())?,
                TemplatePart::Capture(name) => {
                    let len = rest
                        .bytes()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
                        .count();
                    if len == 0 {
                        return None;
                    }
                    captures.insert(name.clone(), rest[..len].to_owned());
                    rest = &rest[len..];
                }
            }
        }
        if !rest.is_empty() {
            return None;
        }
        let key = captures.get(&self.key)?.clone();
        Some(ShortLinkMatch { key, captures })
    }
}

/// The path of an absolute `http(s)` URL or a root-relative URL, without
/// query or fragment.
pub(crate) fn url_path(url: &str) -> Option<&str> {
    let after_scheme = if url.starts_with('/') && !url.starts_with("//") {
        url
    } else {
        let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
        let rest = if lower.starts_with("https://") {
            &url[8..]
        } else if lower.starts_with("http://") {
            &url[7..]
        } else {
            return None;
        };
        let slash = rest.find('/')?;
        let host = &rest[..slash];
        if host.is_empty() || host.contains(['?', '#']) {
            return None;
        }
        &rest[slash..]
    };
    let end = after_scheme.find(['?', '#']).unwrap_or(after_scheme.len());
    Some(&after_scheme[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_matches_any_host_and_trailing_slash() {
        let p = ShortLinkPattern::default_pattern();
        for url in [
            "https://a.b/-/ai/conversations/x-1/call/c_2",
            "http://localhost:8080/-/ai/conversations/x-1/call/c_2/",
            "/-/ai/conversations/x-1/call/c_2?tab=1",
        ] {
            assert_eq!(
                p.match_url(url).map(|m| m.key),
                Some("c_2".to_owned()),
                "{url}"
            );
        }
        for url in [
            "https://a.b/-/ai/conversations/x-1/call/",
            "https://a.b/-/ai/conversations/x.1/call/c",
            "javascript:/-/ai/conversations/x/call/c",
            "//evil/-/ai/conversations/x/call/c",
            "https://a.b/-/ai/conversations/x/call/c/extra",
        ] {
            assert!(p.match_url(url).is_none(), "{url}");
        }
    }

    #[test]
    fn any_prefix_matches_after_whole_segments_only() {
        let p = ShortLinkPattern::default_pattern();
        for url in [
            "https://ui.example.org/o/p/-/ai/conversations/c1/call/5d2e8f90-1111-2222-3333-444455556666",
            "https://a.b/org/proj/-/ai/conversations/x-1/call/c_2/",
            "/org/-/ai/conversations/x-1/call/c_2?tab=1#top",
            "https://a.b/-/ai/conversations/x-1/call/c_2",
            // The last occurrence counts when the prefix itself looks alike.
            "https://a.b/-/ai/conversations/x/call/y/-/ai/conversations/x-1/call/c_2",
        ] {
            let m = p.match_url(url);
            assert!(m.is_some(), "{url}");
        }
        for url in [
            "https://a.b/org-/ai/conversations/x-1/call/c_2",
            "https://a.b/o/p/-/ai/conversations/x-1/call/c_2/more",
            "https://a.b/o/p/-/ai/conversations/x-1/call/",
        ] {
            assert!(p.match_url(url).is_none(), "{url}");
        }
        let m = p
            .match_url("https://a.b/o/p/-/ai/conversations/x-1/call/c_2")
            .map(|m| (m.key, m.captures["conversation"].clone()));
        assert_eq!(m, Some(("c_2".to_owned(), "x-1".to_owned())));
    }

    #[test]
    fn anchored_templates_match_from_the_path_start() {
        let p = ShortLinkPattern::new("/-/ai/conversations/{conversation}/call/{call}", "call")
            .unwrap();
        assert!(p
            .match_url("https://a.b/-/ai/conversations/x/call/c")
            .is_some());
        assert!(p
            .match_url("https://a.b/o/p/-/ai/conversations/x/call/c")
            .is_none());
        let round_trip: ShortLinkPattern =
            serde_json::from_value(serde_json::to_value(&p).unwrap()).unwrap();
        assert_eq!(round_trip, p);
    }

    #[test]
    fn bad_templates_name_the_field() {
        for (t, k) in [
            ("no-slash/{a}", "a"),
            ("**{a}", "a"),
            ("*/x/{a}", "a"),
            ("/{a}{b}", "a"),
            ("/{a", "a"),
            ("/{a}/{a}", "a"),
            ("/{1a}", "1a"),
            ("/x/{a}", "b"),
            ("/x}/{a}", "a"),
        ] {
            let err = ShortLinkPattern::new(t, k).unwrap_err();
            assert!(err.to_string().contains("shortLinkPatterns"), "{err}");
        }
    }
}
