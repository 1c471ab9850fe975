//! The URL scheme policy for every `href` and `src` citemark writes itself.
//!
//! Checks run on the decoded URL (pulldown-cmark has already decoded
//! entities and backslash escapes), normalized the way browsers read an
//! attribute: leading and trailing C0 controls and spaces dropped, tabs and
//! newlines removed anywhere. So `&#106;avascript:`, ` java\tscript:` and
//! `\x01JaVaScRiPt:` are all seen as `javascript:` and refused.

use std::borrow::Cow;

use crate::options::UrlPolicy;

/// The schemes [`UrlPolicy::Safe`] allows.
const SAFE_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// The scheme of `url` as a browser would parse it (still in its written
/// case); `None` for relative and fragment URLs. Allocates only for the
/// rare URL with a tab or newline inside its scheme.
fn scheme(url: &str) -> Option<Cow<'_, str>> {
    let bytes = url.as_bytes();
    let start = bytes.iter().position(|&b| b > b' ')?;
    let colon = start
        + bytes[start..]
            .iter()
            .position(|b| matches!(b, b':' | b'/' | b'?' | b'#'))?;
    if bytes[colon] != b':' {
        return None;
    }
    let written = &url[start..colon];
    let scheme: Cow<'_, str> = if written.contains(['\t', '\n', '\r']) {
        Cow::Owned(
            written
                .chars()
                .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                .collect(),
        )
    } else {
        Cow::Borrowed(written)
    };
    let mut chars = scheme.bytes();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    valid.then_some(scheme)
}

fn scheme_is(scheme: &str, names: &[&str]) -> bool {
    names.iter().any(|name| scheme.eq_ignore_ascii_case(name))
}

/// Whether `url` may be written into an `href` or `src` under `policy`.
///
/// # Examples
/// (crate-private; see the unit tests below)
pub(crate) fn is_allowed(url: &str, policy: UrlPolicy) -> bool {
    match policy {
        UrlPolicy::DangerouslyAllowAny => true,
        UrlPolicy::Safe => scheme(url).is_none_or(|s| scheme_is(&s, &SAFE_SCHEMES)),
    }
}

/// Whether `url` leaves the page's origin (gets `rel`/`target`).
pub(crate) fn is_external(url: &str) -> bool {
    url.starts_with("//") || scheme(url).is_some_and(|s| scheme_is(&s, &["http", "https"]))
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
