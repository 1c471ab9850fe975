//! GFM extended autolinks: bare `www.` links, `http://` / `https://` /
//! `ftp://` URLs and e-mail addresses in running text.
//!
//! pulldown-cmark 0.13 parses CommonMark's `<…>` autolinks but not the GFM
//! "Autolinks (extension)" (GFM spec 0.29), so citemark recognises them itself.
//! This module owns only the recognition: it is a pure scanner over the
//! decoded text the renderer collected outside code, links and raw HTML, and
//! it returns byte ranges plus hrefs. Splitting the text, escaping and URL
//! sanitising belong to the caller; an `href` is raw text, not percent-encoded.
//!
//! The rules are the spec's. Where the spec is silent, behaviour follows
//! cmark-gfm's `extensions/autolink.c` (what GitHub runs), which also supplies
//! its test suite's extras: `'` and `"` are trailing punctuation, a URL's host
//! needs no `.` (`http://localhost:8080`), and `mailto:` / `xmpp:` prefixes
//! are kept. Web links are found first; e-mail addresses only in the gaps
//! between them, as cmark-gfm does.
//!
//! Every scan is linear in the length of the text: candidate positions only
//! move forward, each domain run is scanned once and then validated for any
//! start inside it in O(1), and e-mail scans never reach back past the
//! previous `@`.

use std::ops::Range;

/// One bare URL found in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Autolink {
    /// Byte range of the link text within the scanned text.
    pub(crate) range: Range<usize>,
    /// The href: the text itself for `http://`/`https://`/`ftp://` URLs,
    /// `http://` + text for `www.` links, `mailto:` + text for bare e-mail
    /// addresses (and the text itself for explicit `mailto:`/`xmpp:` ones).
    pub(crate) href: String,
}

/// Cheap pre-check: `false` means `find_autolinks(text)` is certainly empty.
///
/// One vectorized pass for `@`, `:` and `.`, looking around each hit for
/// `@`, `://` or `www.`.
pub(crate) fn may_contain_autolink(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr3_iter(b'@', b':', b'.', bytes).any(|at| match bytes[at] {
        b'@' => true,
        b':' => bytes.get(at + 1..at + 3) == Some(b"//"),
        _ => at >= 3 && &bytes[at - 3..at] == b"www",
    })
}

/// All extended autolinks in `text`, in order, non-overlapping.
pub(crate) fn find_autolinks(text: &str) -> Vec<Autolink> {
    if !may_contain_autolink(text) {
        return Vec::new();
    }
    let web = find_web_links(text);
    let mut links = Vec::with_capacity(web.len());
    let mut gap_start = 0;
    for link in web {
        find_emails(text, gap_start..link.range.start, &mut links);
        gap_start = link.range.end;
        links.push(link);
    }
    find_emails(text, gap_start..text.len(), &mut links);
    links
}

// ---------------------------------------------------------------------------
// www and scheme links

/// Schemes of extended URL autolinks, matched case-insensitively.
const SCHEMES: [&[u8]; 3] = [b"http", b"https", b"ftp"];

/// `www.` and scheme links, left to right, non-overlapping.
fn find_web_links(text: &str) -> Vec<Autolink> {
    let bytes = text.as_bytes();
    let mut scanner = WebScanner {
        text,
        floor: 0,
        run: None,
    };
    let mut links = Vec::new();
    let mut at = 0;
    while let Some(offset) = bytes[at..].iter().position(|&b| b == b'w' || b == b':') {
        at += offset;
        let link = if bytes[at] == b'w' {
            scanner.www_link(at)
        } else {
            scanner.url_link(at)
        };
        match link {
            Some(link) => {
                at = link.range.end;
                scanner.floor = at;
                links.push(link);
            }
            None => at += 1,
        }
    }
    links
}

struct WebScanner<'t> {
    text: &'t str,
    /// End of the last link found: the next one may not start before it.
    floor: usize,
    /// The last domain run scanned, reused by later candidates inside it.
    run: Option<DomainRun>,
}

impl WebScanner<'_> {
    /// A `www.` link starting at `at`.
    fn www_link(&mut self, at: usize) -> Option<Autolink> {
        if !self.text.as_bytes()[at..].starts_with(b"www.") || !self.www_may_start(at) {
            return None;
        }
        let run = self.domain_run(at);
        if !run.is_valid_domain(at, true) {
            return None;
        }
        let end = self.link_end(at, &run)?;
        Some(Autolink {
            range: at..end,
            href: format!("http://{}", &self.text[at..end]),
        })
    }

    /// A scheme link whose `://` starts at `colon`.
    fn url_link(&mut self, colon: usize) -> Option<Autolink> {
        let bytes = self.text.as_bytes();
        if !bytes[colon..].starts_with(b"://") {
            return None;
        }
        let start = scheme_start(bytes, colon).filter(|&start| start >= self.floor)?;
        let host = colon + 3;
        if !self.text[host..].chars().next().is_some_and(is_host_start) {
            return None;
        }
        let run = self.domain_run(host);
        if !run.is_valid_domain(host, false) {
            return None;
        }
        let end = self.link_end(start, &run)?;
        Some(Autolink {
            range: start..end,
            href: self.text[start..end].to_owned(),
        })
    }

    /// `www.` links start the text or follow whitespace, `*`, `_`, `~` or `(`.
    fn www_may_start(&self, at: usize) -> bool {
        at == 0
            || self.text[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_whitespace() || matches!(c, '*' | '_' | '~' | '('))
    }

    /// The domain run containing `start`, scanning it only if not cached.
    fn domain_run(&mut self, start: usize) -> DomainRun {
        match self.run {
            Some(run) if run.start <= start && start < run.end => run,
            _ => {
                let run = DomainRun::scan(self.text, start);
                self.run = Some(run);
                run
            }
        }
    }

    /// Where a link starting at `start` with domain `run` ends: at the next
    /// whitespace or `<`, minus trailing punctuation. `None` if trimming would
    /// cut into the domain (it cannot for a valid domain; this is a guard).
    fn link_end(&self, start: usize, run: &DomainRun) -> Option<usize> {
        let path_end = self.text[run.end..]
            .char_indices()
            .find(|&(_, c)| c.is_whitespace() || c == '<')
            .map_or(self.text.len(), |(offset, _)| run.end + offset);
        let end = start + trimmed_len(&self.text.as_bytes()[start..path_end]);
        (end >= run.host_end).then_some(end)
    }
}

/// Start of the `http`, `https` or `ftp` scheme ending at `colon`, unless it
/// is the tail of a longer word (`xhttp://`).
fn scheme_start(bytes: &[u8], colon: usize) -> Option<usize> {
    SCHEMES.iter().find_map(|scheme| {
        let start = colon.checked_sub(scheme.len())?;
        let after_letter = start
            .checked_sub(1)
            .is_some_and(|before| bytes[before].is_ascii_alphabetic());
        (bytes[start..colon].eq_ignore_ascii_case(scheme) && !after_letter).then_some(start)
    })
}

/// A maximal run of domain characters (host characters and `.`), with what
/// is needed to validate a domain starting anywhere inside it in O(1).
#[derive(Debug, Clone, Copy)]
struct DomainRun {
    start: usize,
    /// End of the run.
    end: usize,
    /// End of the run's last host character: trailing dots are not domain.
    host_end: usize,
    /// The last two dots before `host_end`.
    last_dot: Option<usize>,
    second_last_dot: Option<usize>,
    /// The last `_` in the run.
    last_underscore: Option<usize>,
}

impl DomainRun {
    fn scan(text: &str, start: usize) -> Self {
        let mut run = DomainRun {
            start,
            end: text.len(),
            host_end: start,
            last_dot: None,
            second_last_dot: None,
            last_underscore: None,
        };
        let mut dots = (None, None);
        for (offset, c) in text[start..].char_indices() {
            let at = start + offset;
            if c == '.' {
                dots = (dots.1, Some(at));
            } else if is_host_char(c) {
                if c == '_' {
                    run.last_underscore = Some(at);
                }
                run.host_end = at + c.len_utf8();
                (run.second_last_dot, run.last_dot) = dots;
            } else {
                run.end = at;
                break;
            }
        }
        run
    }

    /// Whether `from..host_end` is a valid domain: non-empty, with a `.` if
    /// `needs_dot`, and no `_` in its last two segments.
    fn is_valid_domain(&self, from: usize, needs_dot: bool) -> bool {
        if from >= self.host_end {
            return false;
        }
        let last_two_start = match self.last_dot {
            Some(dot) if dot >= from => self
                .second_last_dot
                .filter(|&dot| dot >= from)
                .map_or(from, |dot| dot + 1),
            _ if needs_dot => return false,
            _ => from,
        };
        match self.last_underscore {
            Some(underscore) => underscore < last_two_start,
            None => true,
        }
    }
}

/// Domain characters besides `.`: ASCII alphanumerics, `-` and `_`, and
/// non-ASCII characters that are neither whitespace nor punctuation
/// (cmark-gfm links `http://🍄.ga/`).
fn is_host_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '-' || c == '_'
    } else {
        !c.is_whitespace() && !is_non_ascii_punctuation(c)
    }
}

/// The first character after `://`: a host character other than `-`/`_`.
fn is_host_start(c: char) -> bool {
    is_host_char(c) && c != '-' && c != '_'
}

/// Non-ASCII punctuation, approximately: std has no Unicode categories, so
/// this covers the common punctuation blocks (Latin-1, general, CJK,
/// full-width), plus the invisible zero-width format characters.
fn is_non_ascii_punctuation(c: char) -> bool {
    matches!(c,
        '\u{a1}' | '\u{a7}' | '\u{ab}' | '\u{b6}' | '\u{b7}' | '\u{bb}' | '\u{bf}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2010}'..='\u{2027}'
        | '\u{2030}'..='\u{205e}'
        | '\u{2060}'
        | '\u{2e00}'..='\u{2e7f}'
        | '\u{3001}'..='\u{3003}'
        | '\u{3008}'..='\u{3011}'
        | '\u{3014}'..='\u{301f}'
        | '\u{30fb}'
        | '\u{fe10}'..='\u{fe19}'
        | '\u{fe30}'..='\u{fe6b}'
        | '\u{feff}'
        | '\u{ff01}'..='\u{ff0f}'
        | '\u{ff1a}'..='\u{ff20}'
        | '\u{ff3b}'..='\u{ff40}'
        | '\u{ff5b}'..='\u{ff65}'
    )
}

/// GFM "extended autolink path validation": the length of `link` once
/// trailing punctuation, unbalanced `)` and an entity-like `&name;` are
/// dropped (repeatedly, from the end).
fn trimmed_len(link: &[u8]) -> usize {
    let opening = link.iter().filter(|&&b| b == b'(').count();
    let mut closing = link.iter().filter(|&&b| b == b')').count();
    let mut end = link.len();
    while let Some(&last) = link[..end].last() {
        match last {
            b'?' | b'!' | b'.' | b',' | b':' | b'*' | b'_' | b'~' | b'\'' | b'"' => end -= 1,
            b')' if closing > opening => {
                closing -= 1;
                end -= 1;
            }
            b';' => end = entity_start(&link[..end]).unwrap_or(end - 1),
            _ => break,
        }
    }
    end
}

/// Where the `&` is if `link` ends with `&` + ASCII alphanumerics + `;`.
fn entity_start(link: &[u8]) -> Option<usize> {
    let body = link.strip_suffix(b";")?;
    let name_len = body
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let amp = body.len().checked_sub(name_len + 1)?;
    (name_len > 0 && body[amp] == b'&').then_some(amp)
}

// ---------------------------------------------------------------------------
// e-mail addresses

/// Explicit schemes kept in front of an address (as cmark-gfm does).
const MAILTO: &[u8] = b"mailto:";
const XMPP: &[u8] = b"xmpp:";

/// Appends the e-mail autolinks in `text[gap]` to `out`.
fn find_emails(text: &str, gap: Range<usize>, out: &mut Vec<Autolink>) {
    let bytes = text.as_bytes();
    // A local part never reaches back past this: the previous link or `@`.
    let mut floor = gap.start;
    let mut from = gap.start;
    while let Some(offset) = bytes[from..gap.end].iter().position(|&b| b == b'@') {
        let at = from + offset;
        match email_at(text, floor, at, gap.end) {
            Ok(link) => {
                floor = link.range.end;
                from = floor;
                out.push(link);
            }
            Err(resume) => {
                floor = at + 1;
                from = resume;
            }
        }
    }
}

/// The address around the `@` at `at`, or where to resume searching.
fn email_at(text: &str, floor: usize, at: usize, limit: usize) -> Result<Autolink, usize> {
    let bytes = text.as_bytes();
    let local_len = bytes[floor..at]
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'))
        .count();
    if local_len == 0 {
        return Err(at + 1);
    }
    let local_start = at - local_len;
    let scheme = explicit_scheme(bytes, floor, local_start);
    let end = email_domain_end(bytes, at + 1, limit, scheme == Some(XMPP))?;
    let (start, href) = match scheme {
        Some(scheme) => {
            let start = local_start - scheme.len();
            (start, text[start..end].to_owned())
        }
        None => (local_start, format!("mailto:{}", &text[local_start..end])),
    };
    Ok(Autolink {
        range: start..end,
        href,
    })
}

/// `mailto:` or `xmpp:` right before `local_start`, not glued to a word.
fn explicit_scheme(bytes: &[u8], floor: usize, local_start: usize) -> Option<&'static [u8]> {
    [MAILTO, XMPP].into_iter().find(|scheme| {
        local_start
            .checked_sub(scheme.len())
            .filter(|&start| start >= floor)
            .is_some_and(|start| {
                let after_word = start
                    .checked_sub(1)
                    .is_some_and(|before| bytes[before].is_ascii_alphanumeric());
                &bytes[start..local_start] == *scheme && !after_word
            })
    })
}

/// End of a valid e-mail domain starting at `from`: labels of ASCII
/// alphanumerics, `-` and `_` joined by `.`, at least one `.`, ending in an
/// alphanumeric; an `xmpp:` address may go on with a `/resource`. On
/// failure, where to resume searching (at a following `@`, if any).
fn email_domain_end(
    bytes: &[u8],
    from: usize,
    limit: usize,
    resource_allowed: bool,
) -> Result<usize, usize> {
    let mut dots = 0;
    let mut in_resource = false;
    let mut end = from;
    while end < limit {
        match bytes[end] {
            b if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' => {}
            b'.' if end + 1 < limit && bytes[end + 1].is_ascii_alphanumeric() => {
                if !in_resource {
                    dots += 1;
                }
            }
            b'/' if resource_allowed => in_resource = true,
            b'@' => return Err(end),
            _ => break,
        }
        end += 1;
    }
    let ends_well = end > from && bytes[end - 1].is_ascii_alphanumeric();
    if dots > 0 && ends_well {
        Ok(end)
    } else {
        Err(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts the (link text, href) pairs found in `text`, and the
    /// invariants every result must hold.
    fn check(text: &str, expected: &[(&str, &str)]) {
        let found = find_autolinks(text);
        assert!(found.is_empty() || may_contain_autolink(text), "{text:?}");
        for pair in found.windows(2) {
            assert!(pair[0].range.end <= pair[1].range.start, "{text:?}");
        }
        let actual: Vec<(&str, &str)> = found
            .iter()
            .map(|link| {
                let linked = text.get(link.range.clone()).expect("char boundaries");
                (linked, link.href.as_str())
            })
            .collect();
        assert_eq!(actual, expected, "in {text:?}");
    }

    fn none(text: &str) {
        check(text, &[]);
    }

    // GFM spec 0.29, "Autolinks (extension)", one test per example; each
    // string is the text of one paragraph as the renderer passes it.

    #[test]
    fn spec_621_www() {
        check(
            "www.commonmark.org",
            &[("www.commonmark.org", "http://www.commonmark.org")],
        );
    }

    #[test]
    fn spec_622_www_with_path_in_sentence() {
        let text = "Visit www.commonmark.org/help for more information.";
        assert_eq!(
            find_autolinks(text),
            [Autolink {
                range: 6..29,
                href: "http://www.commonmark.org/help".to_owned(),
            }]
        );
    }

    #[test]
    fn spec_623_trailing_period() {
        check(
            "Visit www.commonmark.org.",
            &[("www.commonmark.org", "http://www.commonmark.org")],
        );
        check(
            "Visit www.commonmark.org/a.b.",
            &[("www.commonmark.org/a.b", "http://www.commonmark.org/a.b")],
        );
    }

    #[test]
    fn spec_624_parentheses() {
        let link = "www.google.com/search?q=Markup+(business)";
        let href = "http://www.google.com/search?q=Markup+(business)";
        check("www.google.com/search?q=Markup+(business)", &[(link, href)]);
        check(
            "www.google.com/search?q=Markup+(business)))",
            &[(link, href)],
        );
        check(
            "(www.google.com/search?q=Markup+(business))",
            &[(link, href)],
        );
        check(
            "(www.google.com/search?q=Markup+(business)",
            &[(link, href)],
        );
    }

    #[test]
    fn spec_625_inner_parentheses_untouched() {
        check(
            "www.google.com/search?q=(business))+ok",
            &[(
                "www.google.com/search?q=(business))+ok",
                "http://www.google.com/search?q=(business))+ok",
            )],
        );
    }

    #[test]
    fn spec_626_entity_like_suffix() {
        check(
            "www.google.com/search?q=commonmark&hl=en",
            &[(
                "www.google.com/search?q=commonmark&hl=en",
                "http://www.google.com/search?q=commonmark&hl=en",
            )],
        );
        check(
            "www.google.com/search?q=commonmark&hl;",
            &[(
                "www.google.com/search?q=commonmark",
                "http://www.google.com/search?q=commonmark",
            )],
        );
    }

    #[test]
    fn spec_627_less_than_ends_link() {
        check(
            "www.commonmark.org/he<lp",
            &[("www.commonmark.org/he", "http://www.commonmark.org/he")],
        );
    }

    #[test]
    fn spec_628_schemes() {
        check(
            "http://commonmark.org",
            &[("http://commonmark.org", "http://commonmark.org")],
        );
        let url = "https://encrypted.google.com/search?q=Markup+(business)";
        check(
            "(Visit https://encrypted.google.com/search?q=Markup+(business))",
            &[(url, url)],
        );
        check(
            "Anonymous FTP is available at ftp://foo.bar.baz.",
            &[("ftp://foo.bar.baz", "ftp://foo.bar.baz")],
        );
    }

    #[test]
    fn spec_629_email() {
        check("foo@bar.baz", &[("foo@bar.baz", "mailto:foo@bar.baz")]);
    }

    #[test]
    fn spec_630_plus_only_before_at() {
        check(
            "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.",
            &[("hello+xyz@mail.example", "mailto:hello+xyz@mail.example")],
        );
    }

    #[test]
    fn spec_631_email_endings() {
        let link = ("a.b-c_d@a.b", "mailto:a.b-c_d@a.b");
        check("a.b-c_d@a.b", &[link]);
        check("a.b-c_d@a.b.", &[link]);
        none("a.b-c_d@a.b-");
        none("a.b-c_d@a.b_");
    }

    // cmark-gfm test/extensions.txt, "Autolinks" and "Interop".

    #[test]
    fn extensions_autolinks() {
        check(
            ": http://google.com https://google.com",
            &[
                ("http://google.com", "http://google.com"),
                ("https://google.com", "https://google.com"),
            ],
        );
        // After the `<http://google.com/å>` CommonMark autolink.
        check(
            " http://google.com/å",
            &[("http://google.com/å", "http://google.com/å")],
        );
        check(
            "scyther@pokemon.com",
            &[("scyther@pokemon.com", "mailto:scyther@pokemon.com")],
        );
        check(
            "www.github.com www.github.com/á",
            &[
                ("www.github.com", "http://www.github.com"),
                ("www.github.com/á", "http://www.github.com/á"),
            ],
        );
        check(
            "www.google.com/a_b",
            &[("www.google.com/a_b", "http://www.google.com/a_b")],
        );
        // Inside `**…**`.
        check(
            "Autolink and http://inlines",
            &[("http://inlines", "http://inlines")],
        );
        check("a.w@b.c", &[("a.w@b.c", "mailto:a.w@b.c")]);
        let ok = ("http://google.com/ok", "http://google.com/ok");
        check(
            "Full stop outside parens shouldn't be included http://google.com/ok.",
            &[ok],
        );
        check(
            "(Full stop inside parens shouldn't be included http://google.com/ok.)",
            &[ok],
        );
        let google = ("http://google.com", "http://google.com");
        check("\"http://google.com\"", &[google]);
        check("'http://google.com'", &[google]);
        check(
            "http://🍄.ga/ http://x🍄.ga/",
            &[
                ("http://🍄.ga/", "http://🍄.ga/"),
                ("http://x🍄.ga/", "http://x🍄.ga/"),
            ],
        );
    }

    #[test]
    fn extensions_should_not_link() {
        // `(_A_@_.A`: must not crash; as plain text it is an address.
        check("(_A_@_.A", &[("_A_@_.A", "mailto:_A_@_.A")]);
        // What the renderer passes once `_A_` became emphasis.
        none("@_.A");
        none("@a.b.c@. x");
        none("n@.  b");
    }

    #[test]
    fn extensions_interop() {
        check(
            "www.google.com",
            &[("www.google.com", "http://www.google.com")],
        );
        check(
            "http://google.com",
            &[("http://google.com", "http://google.com")],
        );
        check(
            "https://github.com www.github.com",
            &[
                ("https://github.com", "https://github.com"),
                ("www.github.com", "http://www.github.com"),
            ],
        );
    }

    // Newer cmark-gfm: explicit `mailto:` and `xmpp:`.

    #[test]
    fn explicit_mailto() {
        let mailto = ("mailto:scyther@pokemon.com", "mailto:scyther@pokemon.com");
        check("mailto:scyther@pokemon.com", &[mailto]);
        check("This is a mailto:scyther@pokemon.com", &[mailto]);
        check("mailto:scyther@pokemon.com.", &[mailto]);
        check("mailto:scyther@pokemon.com/", &[mailto]);
        check("mailto:scyther@pokemon.com/message", &[mailto]);
        check(
            "mailto:scyther@pokemon.com/mailto:beedrill@pokemon.com",
            &[
                mailto,
                ("mailto:beedrill@pokemon.com", "mailto:beedrill@pokemon.com"),
            ],
        );
        let bare = ("scyther@pokemon.com", "mailto:scyther@pokemon.com");
        check("mmmmailto:scyther@pokemon.com", &[bare]);
        check("Email me at:scyther@pokemon.com", &[bare]);
    }

    #[test]
    fn explicit_xmpp() {
        let xmpp = ("xmpp:scyther@pokemon.com", "xmpp:scyther@pokemon.com");
        check("xmpp:scyther@pokemon.com", &[xmpp]);
        check("xmpp:scyther@pokemon.com.", &[xmpp]);
        let message = (
            "xmpp:scyther@pokemon.com/message",
            "xmpp:scyther@pokemon.com/message",
        );
        check("xmpp:scyther@pokemon.com/message", &[message]);
        check("xmpp:scyther@pokemon.com/message.", &[message]);
    }

    // Domain rules.

    #[test]
    fn underscores_only_outside_last_two_segments() {
        none("www.xxx.yyy._zzz");
        none("www.xxx._yyy.zzz");
        check(
            "www._xxx.yyy.zzz",
            &[("www._xxx.yyy.zzz", "http://www._xxx.yyy.zzz")],
        );
        none("http://a_b.example");
        none("http://my_host/x");
        // A later `www.` inside a rejected domain is judged on its own.
        check("www.x_www.com", &[("www.com", "http://www.com")]);
    }

    #[test]
    fn www_needs_boundary_and_lowercase() {
        none("awww.example.com");
        none("x.www.example.com");
        none("WWW.EXAMPLE.COM");
        none("www.");
        none("www..");
        for text in [
            "*www.a.com",
            "_www.a.com",
            "~www.a.com",
            "(www.a.com",
            "\twww.a.com",
        ] {
            check(text, &[("www.a.com", "http://www.a.com")]);
        }
    }

    #[test]
    fn scheme_rules() {
        none("https://");
        none("https:// example.com");
        none("http://.");
        none("http://-a.com");
        none("xhttp://example.com");
        none("http:/example.com");
        none("mailto://example.com");
        check(
            "HTTPS://EXAMPLE.COM",
            &[("HTTPS://EXAMPLE.COM", "HTTPS://EXAMPLE.COM")],
        );
        let url = ("https://example.com", "https://example.com");
        check("see:https://example.com", &[url]);
        check("1https://example.com", &[url]);
    }

    #[test]
    fn hosts_ports_and_queries() {
        for url in [
            "http://localhost:8080/x",
            "http://example.com:8080/x",
            "http://192.168.0.1/status",
            "http://10.0.0.1:3000",
            "https://example.com/search?q=a+b&lang=en&page=2",
            "https://example.com/#/route?x=1",
        ] {
            check(&format!("open {url} now"), &[(url, url)]);
        }
        check(
            "www.example.com/?a=1&b=2",
            &[(
                "www.example.com/?a=1&b=2",
                "http://www.example.com/?a=1&b=2",
            )],
        );
        check(
            "https://example.com/?q=a&amp;",
            &[("https://example.com/?q=a", "https://example.com/?q=a")],
        );
        check(
            "mail admin@192.168.0.1",
            &[("admin@192.168.0.1", "mailto:admin@192.168.0.1")],
        );
    }

    #[test]
    fn trailing_punctuation() {
        let url = ("https://a.example/x", "https://a.example/x");
        for text in [
            "See https://a.example/x.",
            "(see https://a.example/x),",
            "(see https://a.example/x).",
            "https://a.example/x?!",
            "https://a.example/x:",
            "**https://a.example/x**",
            "https://a.example/x_~",
            "https://a.example/x&amp;&lt;",
        ] {
            check(text, &[url]);
        }
        let balanced = ("https://a.example/f(x)", "https://a.example/f(x)");
        check("(see https://a.example/f(x)).", &[balanced]);
        check(
            "https://a.example/x;",
            &[("https://a.example/x", "https://a.example/x")],
        );
        check(
            "https://a.example/x&1;y",
            &[("https://a.example/x&1;y", "https://a.example/x&1;y")],
        );
    }

    #[test]
    fn llm_citation_in_parentheses() {
        let text = "as described (https://app.example/-/ai/conversations/c1/call/call_9)";
        let url = "https://app.example/-/ai/conversations/c1/call/call_9";
        check(text, &[(url, url)]);
        let start = text.find("https").expect("present");
        assert_eq!(find_autolinks(text)[0].range, start..start + url.len());
    }

    #[test]
    fn non_ascii_around_links() {
        let text = "Café: https://exemple.fr/été — merci";
        let url = "https://exemple.fr/été";
        check(text, &[(url, url)]);
        let start = text.find("https").expect("present");
        assert_eq!(find_autolinks(text)[0].range, start..start + url.len());

        check(
            "日本語 www.例え.jp/パス です",
            &[("www.例え.jp/パス", "http://www.例え.jp/パス")],
        );
        // CJK text glued to a URL: schemes need no boundary, `www.` does.
        check(
            "链接https://example.com 结束",
            &[("https://example.com", "https://example.com")],
        );
        none("链接www.example.com");
        // Unicode whitespace ends a link and may precede `www.`.
        check(
            "\u{a0}www.example.com\u{a0}next",
            &[("www.example.com", "http://www.example.com")],
        );
        check(
            "https://example.com/a\u{2003}b",
            &[("https://example.com/a", "https://example.com/a")],
        );
        // Non-ASCII is not part of an e-mail address.
        check(
            "Grüße an bob@example.de",
            &[("bob@example.de", "mailto:bob@example.de")],
        );
        none("点看@example.com");
        check("é@x.com a@b.cé", &[("a@b.c", "mailto:a@b.c")]);
        // A URL host cannot start with punctuation, ASCII or not.
        none("http://「example.com」");
    }

    #[test]
    fn emails_and_urls_do_not_overlap() {
        check(
            "https://example.com/@user and me@example.com",
            &[
                ("https://example.com/@user", "https://example.com/@user"),
                ("me@example.com", "mailto:me@example.com"),
            ],
        );
        check(
            "http://user:pw@host.example/x",
            &[(
                "http://user:pw@host.example/x",
                "http://user:pw@host.example/x",
            )],
        );
        check(
            "foo@www.example.com",
            &[("foo@www.example.com", "mailto:foo@www.example.com")],
        );
        check("a@b@c.com", &[("b@c.com", "mailto:b@c.com")]);
        check(
            "x@y.com.z@w.org",
            &[("y.com.z@w.org", "mailto:y.com.z@w.org")],
        );
        none("foo@barbaz");
        none("foo@barbaz.");
        none("@example.com");
    }

    #[test]
    fn may_contain_autolink_prefilters() {
        assert!(!may_contain_autolink("plain text: nothing to see (here)."));
        assert!(!may_contain_autolink(""));
        assert!(may_contain_autolink("www.example.com"));
        assert!(may_contain_autolink("a@b.c"));
        assert!(may_contain_autolink("ftp://x"));
        none("plain text: nothing to see (here).");
        none("");
    }

    // Inputs that would be quadratic for a rescanning scanner. Only the
    // results are asserted; a quadratic scan would not finish.

    const MB: usize = 1 << 20;

    #[test]
    fn linear_www_runs() {
        let text = "www.".repeat(MB / 4);
        let found = find_autolinks(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].range, 0..text.len() - 1);

        none(&"www._".repeat(MB / 5));
        none(&"_www.".repeat(MB / 5));
        let text = "www.".repeat(MB / 4).replace('.', " ");
        assert!(find_autolinks(&text).is_empty());
    }

    #[test]
    fn linear_emails() {
        none(&"a@".repeat(MB / 2));
        none(&"a.a@".repeat(MB / 4));
        let text = format!("{}a@b.co", "a@".repeat(MB / 2));
        check(&text, &[("a@b.co", "mailto:a@b.co")]);
        let text = "mailto:".repeat(MB / 7);
        assert!(find_autolinks(&format!("{text}a@b.co")).len() == 1);
    }

    #[test]
    fn linear_parentheses_and_suffixes() {
        none(&"(".repeat(MB));
        let text = format!("({}", "(".repeat(MB));
        assert!(find_autolinks(&text).is_empty());

        let text = format!("http://x.com/{}", ")".repeat(MB));
        check(&text, &[("http://x.com/", "http://x.com/")]);
        let text = format!("http://x.com/{}", "(".repeat(MB));
        assert_eq!(find_autolinks(&text)[0].range, 0..text.len());
        let text = format!("{}www.x.com", "(".repeat(MB));
        assert_eq!(find_autolinks(&text)[0].range, MB..text.len());
        let text = format!("http://x.com/{}", "&a;".repeat(MB / 3));
        check(&text, &[("http://x.com/", "http://x.com/")]);
        let text = format!("http://x.com/{};", "a".repeat(MB));
        assert_eq!(find_autolinks(&text)[0].range, 0..text.len() - 1);
    }

    #[test]
    fn linear_schemes() {
        let text = "http://".repeat(MB / 7);
        assert_eq!(find_autolinks(&text)[0].range, 0..text.len());
        none(&"http://a_".repeat(MB / 9));
        none(&"://".repeat(MB / 3));
    }
}
