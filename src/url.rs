//! The URL scheme policy for every `href` and `src` citemark writes itself.
//!
//! Checks run on the decoded URL (pulldown-cmark has already decoded
//! entities and backslash escapes), normalized the way browsers read an
//! attribute: leading and trailing C0 controls and spaces dropped, tabs and
//! newlines removed anywhere. So `&#106;avascript:`, ` java\tscript:` and
//! `\x01JaVaScRiPt:` are all seen as `javascript:` and refused.

use crate::options::UrlPolicy;

/// The schemes [`UrlPolicy::Safe`] allows.
const SAFE_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// The scheme of `url` as a browser would parse it, lowercased; `None` for
/// relative and fragment URLs.
fn scheme(url: &str) -> Option<String> {
    let trimmed = url.trim_matches(|c: char| c <= ' ');
    let mut scheme = String::new();
    for c in trimmed.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            ':' => return (!scheme.is_empty()).then_some(scheme),
            c if c.is_ascii_alphabetic() => scheme.push(c.to_ascii_lowercase()),
            c if !scheme.is_empty() && (c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) => {
                scheme.push(c)
            }
            _ => return None,
        }
    }
    None
}

/// Whether `url` may be written into an `href` or `src` under `policy`.
///
/// # Examples
/// (crate-private; see the unit tests below)
pub(crate) fn is_allowed(url: &str, policy: UrlPolicy) -> bool {
    match policy {
        UrlPolicy::DangerouslyAllowAny => true,
        UrlPolicy::Safe => scheme(url).is_none_or(|s| SAFE_SCHEMES.contains(&s.as_str())),
    }
}

/// Whether `url` leaves the page's origin (gets `rel`/`target`).
pub(crate) fn is_external(url: &str) -> bool {
    url.starts_with("//") || matches!(scheme(url).as_deref(), Some("http" | "https"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_policy_refuses_script_schemes_however_written() {
        for url in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "\u{1}javascript:alert(1)",
            "vbscript:msgbox(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
        ] {
            assert!(!is_allowed(url, UrlPolicy::Safe), "{url:?}");
        }
    }

    #[test]
    fn safe_policy_allows_web_mail_and_relative() {
        for url in [
            "https://example.com/a?b=c#d",
            "HTTP://EXAMPLE.COM",
            "mailto:a@b.c",
            "/relative/path",
            "relative/path:with-colon-after-slash",
            "#fragment",
            "?query",
            "",
            "java script:alert(1)",
        ] {
            assert!(is_allowed(url, UrlPolicy::Safe), "{url:?}");
        }
    }

    #[test]
    fn external_means_another_origin() {
        assert!(is_external("https://a.b"));
        assert!(is_external("//a.b/c"));
        assert!(!is_external("/a"));
        assert!(!is_external("mailto:x@y.z"));
    }
}
