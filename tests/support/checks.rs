//! The properties every output citemark writes must have, in one place for
//! the tests (`xss`, `raw_html_nesting`, `streaming`, `fuzz_regressions`)
//! and the fuzz targets (`fuzz/`, which include this file too):
//!
//! - no script-capable construct once a browser has parsed it
//!   ([`violations`]);
//! - every element opened is closed, innermost first ([`check_nesting`]);
//! - every `data-citation-ordinal` matches the index ([`check_ordinals`]);
//! - a stream's patches are well formed at every push: their steps open
//!   and close what [`citemark::Stream::open_end_tags`] says, their
//!   balanced pieces and their tail are balanced ([`PatchChecker`]);
//! - the time taken stays linear in the input's size ([`LinearTime`]).
//!
//! Failures are `Err(String)` saying what was wrong, for the caller to
//! report with its input.

// Each includer uses its own part.
#![allow(dead_code)]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use citemark::{Occurrence, Options, Patch, RawHtml, Step, Stream, UrlPolicy};
use scraper::Html;

// ---------------------------------------------------------------------------
// Well-formed: every element opened is closed
// ---------------------------------------------------------------------------

/// Elements that never have an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// One tag of the output.
#[derive(Debug)]
pub struct TagToken {
    /// Lowercased.
    pub name: String,
    pub closing: bool,
    /// Written `<name … />`.
    pub self_closing: bool,
}

/// The tags of `html`, in order. Text is escaped in the output, so a `<`
/// outside a tag starts one; attribute values may hold `<` and `>` (ammonia
/// escapes neither there), so a tag ends at the first `>` outside quotes.
pub fn tags(html: &str) -> Vec<TagToken> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let (closing, tag) = match rest.strip_prefix('/') {
            Some(tag) => (true, tag),
            None => (false, rest),
        };
        if !tag.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let name_len = tag
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(tag.len());
        let mut quote = None;
        let mut end = tag.len();
        for (i, c) in tag.char_indices().skip(name_len) {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => {
                    end = i;
                    break;
                }
                (None, _) => {}
            }
        }
        tags.push(TagToken {
            name: tag[..name_len].to_ascii_lowercase(),
            closing,
            self_closing: tag[..end].ends_with('/'),
        });
        rest = tag.get(end + 1..).unwrap_or("");
    }
    tags
}

/// Every element `html` opens is closed, innermost first.
pub fn check_nesting(html: &str) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    for tag in tags(html) {
        if tag.closing {
            match open.pop() {
                Some(name) if name == tag.name => {}
                innermost => {
                    return Err(format!("</{}> where {innermost:?} is open", tag.name));
                }
            }
        } else if !tag.self_closing && !VOID.contains(&tag.name.as_str()) {
            open.push(tag.name);
        }
    }
    match open.is_empty() {
        true => Ok(()),
        false => Err(format!("left open: {open:?}")),
    }
}

// ---------------------------------------------------------------------------
// Safe: no script-capable construct, as a browser parses it
// ---------------------------------------------------------------------------

/// Elements that run script, load active content, style the page or change
/// where forms and relative URLs go. `svg` and `math` are listed because
/// their foreign-content parsing rules are the root of many mXSS vectors.
const FORBIDDEN_ELEMENTS: &[&str] = &[
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "style",
    "form", "base", "link", "meta",
];

/// Attributes that are script-capable whatever their value (`on*` is
/// checked separately).
const FORBIDDEN_ATTRIBUTES: &[&str] = &["style", "formaction", "srcdoc"];

/// Attributes whose value a browser fetches or navigates to. `xlink:href`
/// appears as `href` once html5ever has parsed it in foreign content; the
/// legacy ones (`background`, `dynsrc`, `lowsrc`) are cheap to include.
const URL_ATTRIBUTES: &[&str] = &[
    "href",
    "src",
    "action",
    "xlink:href",
    "data",
    "poster",
    "background",
    "codebase",
    "dynsrc",
    "lowsrc",
];

const ALLOWED_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// Every script-capable construct in `html`, described for a failure report.
/// Empty means safe.
pub fn violations(html: &str) -> Vec<String> {
    violations_in(&Html::parse_fragment(html))
}

fn violations_in(document: &Html) -> Vec<String> {
    let mut found = Vec::new();
    for node in document.tree.nodes() {
        let Some(element) = node.value().as_element() else {
            continue;
        };
        let tag = element.name().to_ascii_lowercase();
        if FORBIDDEN_ELEMENTS.contains(&tag.as_str()) {
            found.push(format!("<{tag}> element"));
        }
        for (name, value) in element.attrs() {
            let name = name.to_ascii_lowercase();
            if name.starts_with("on") || FORBIDDEN_ATTRIBUTES.contains(&name.as_str()) {
                found.push(format!("<{tag} {name}={value:?}> attribute"));
            } else if URL_ATTRIBUTES.contains(&name.as_str()) {
                if let Some(scheme) = disallowed_scheme(value) {
                    found.push(format!("<{tag} {name}={value:?}> with scheme {scheme:?}"));
                }
            }
        }
    }
    found
}

/// The URL's scheme when it is one a browser would honour and it is not
/// http, https or mailto. Relative and fragment URLs have no scheme.
///
/// This follows the WHATWG URL parser's preprocessing: leading and trailing
/// C0 controls and spaces are stripped, and tabs and newlines anywhere are
/// removed, so `\x01java\tscript:` is `javascript:`. Character references
/// were already decoded by the HTML parser.
fn disallowed_scheme(url: &str) -> Option<String> {
    let cleaned: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let scheme = scheme_of(&cleaned)?.to_ascii_lowercase();
    (!ALLOWED_SCHEMES.contains(&scheme.as_str())).then_some(scheme)
}

/// The text before the first `:` if it is a syntactically valid scheme that
/// comes before any `/`, `?` or `#` (otherwise the URL is relative).
fn scheme_of(url: &str) -> Option<&str> {
    let end = url.find([':', '/', '?', '#'])?;
    if !url[end..].starts_with(':') {
        return None;
    }
    let candidate = &url[..end];
    let mut chars = candidate.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(candidate)
}

// ---------------------------------------------------------------------------
// The index: every `data-citation-ordinal` matches it
// ---------------------------------------------------------------------------

/// The citation elements of `html` carry `data-citation-ordinal` 1, 2, …
/// in document order, one per occurrence of the index, whose ordinals are
/// the same.
pub fn check_ordinals(html: &str, occurrences: &[Occurrence]) -> Result<(), String> {
    ordinals_in(&Html::parse_fragment(html), occurrences)
}

fn ordinals_in(document: &Html, occurrences: &[Occurrence]) -> Result<(), String> {
    let written: Vec<&str> = document
        .tree
        .nodes()
        .filter_map(|node| node.value().as_element()?.attr("data-citation-ordinal"))
        .collect();
    let expected: Vec<String> = (1..=occurrences.len()).map(|i| i.to_string()).collect();
    if written != expected {
        return Err(format!(
            "data-citation-ordinal {written:?} for {} occurrences",
            occurrences.len()
        ));
    }
    match occurrences
        .iter()
        .enumerate()
        .find(|(i, o)| o.ordinal as usize != i + 1)
    {
        Some((i, o)) => Err(format!("occurrence {i} has ordinal {}", o.ordinal)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// A whole output
// ---------------------------------------------------------------------------

/// What may be asked of the output of `options`: the dangerous settings,
/// which no JSON can choose, pass script and unbalanced raw HTML through
/// on purpose.
#[derive(Debug, Clone, Copy)]
pub struct Expect {
    /// No script-capable construct ([`UrlPolicy::Safe`] and no raw HTML
    /// passed through).
    pub safe: bool,
    /// Balanced, and no citation attribute but citemark's (no raw HTML
    /// passed through).
    pub own_tags: bool,
}

impl Expect {
    /// What `options` promise.
    pub fn of(options: &Options) -> Self {
        let passes_raw = options.raw_html == RawHtml::DangerouslyPassThrough;
        Expect {
            safe: !passes_raw && options.urls == UrlPolicy::Safe,
            own_tags: !passes_raw,
        }
    }
}

/// A whole output (a render, or a stream's assembled patches) has every
/// property `expect` asks: balanced, safe, its ordinals its index's.
pub fn check_output(html: &str, occurrences: &[Occurrence], expect: Expect) -> Result<(), String> {
    if expect.own_tags {
        check_nesting(html).map_err(|e| format!("not well formed: {e}"))?;
    }
    if !expect.safe && !expect.own_tags {
        return Ok(());
    }
    let document = Html::parse_fragment(html);
    if expect.safe {
        let found = violations_in(&document);
        if !found.is_empty() {
            return Err(format!("script-capable: {found:?}"));
        }
    }
    if expect.own_tags {
        ordinals_in(&document, occurrences)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// A stream, push by push
// ---------------------------------------------------------------------------

/// Follows a stream's patches and checks each: the elements its steps
/// open are code blocks, tables, lists, quotes or raw elements, closed by
/// their own end tags one at a time; a mark comes with raw elements alone
/// open; the stream's open end tags are those of what the steps left open;
/// every balanced piece and the tail are balanced; and (when `expect.safe`)
/// nothing shown, the appends and the tail, is script-capable, even what a
/// later rewind withdraws.
pub struct PatchChecker {
    expect: Expect,
    /// The end tags of the open elements, outermost first; and at the mark.
    open: Vec<&'static str>,
    at_mark: Vec<&'static str>,
}

/// The end tags of the raw elements a stream may leave open.
const RAW_END_TAGS: [&str; 5] = [
    "</details>",
    "</div>",
    "</section>",
    "</article>",
    "</aside>",
];

/// The start of each element a step may open, and its end tags.
const OPENED: [(&str, &str); 10] = [
    ("<pre><code", "</code></pre>"),
    ("<table>", "</tbody></table>"),
    ("<ul>", "</ul>"),
    ("<ol", "</ol>"),
    ("<blockquote", "</blockquote>"),
    ("<details", "</details>"),
    ("<div", "</div>"),
    ("<section", "</section>"),
    ("<article", "</article>"),
    ("<aside", "</aside>"),
];

impl PatchChecker {
    /// A checker for a new stream with `expect`'s promises.
    pub fn new(expect: Expect) -> Self {
        PatchChecker {
            expect,
            open: Vec::new(),
            at_mark: Vec::new(),
        }
    }

    /// Checks `patch`, which `stream` has just returned.
    pub fn check(&mut self, patch: &Patch, stream: &Stream) -> Result<(), String> {
        if patch.rewind {
            self.open.clone_from(&self.at_mark);
        }
        if patch.mark {
            if !self.open.iter().all(|end| RAW_END_TAGS.contains(end)) {
                return Err(format!("a mark inside {:?}", self.open));
            }
            self.at_mark.clone_from(&self.open);
        }
        let mut at = 0;
        for step in &patch.steps {
            let (Step::Open(len) | Step::Close(len) | Step::Html(len)) = *step else {
                return Err(format!("unknown step {step:?}"));
            };
            let piece = patch
                .append
                .get(at..at + len)
                .ok_or_else(|| format!("step {step:?} at {at} outside append"))?;
            match *step {
                Step::Open(_) => {
                    let Some((_, end)) = OPENED.iter().find(|(start, _)| piece.starts_with(start))
                    else {
                        return Err(format!("opens no known element: {piece:?}"));
                    };
                    if !self.open.iter().all(|end| RAW_END_TAGS.contains(end)) {
                        return Err(format!("{piece:?} opened inside {:?}", self.open));
                    }
                    self.open.push(end);
                }
                Step::Close(_) => {
                    if self.open.pop() != Some(piece) {
                        return Err(format!("{piece:?} closes {:?}", self.open));
                    }
                }
                _ => {
                    if self.expect.own_tags {
                        check_nesting(piece)
                            .map_err(|e| format!("appended {piece:?} not balanced: {e}"))?;
                    }
                }
            }
            at += len;
        }
        if at != patch.append.len() {
            return Err(format!("steps cover {at} of {} bytes", patch.append.len()));
        }
        let innermost_first: String = self.open.iter().rev().copied().collect();
        if stream.open_end_tags() != innermost_first {
            return Err(format!(
                "open end tags {:?}, the steps left {innermost_first:?} open",
                stream.open_end_tags()
            ));
        }
        let tail = patch.tail.as_deref().unwrap_or("");
        if self.expect.own_tags {
            // What a host that keeps a string shows: the open elements, the
            // tail, their end tags; and what a DOM host parses inside the
            // innermost open element: the tail alone, balanced (it never
            // leaves that element: docs/fuzzing.md, finding 1).
            let view = [self.start_tags().as_str(), tail, &innermost_first].concat();
            check_nesting(&view).map_err(|e| format!("tail {tail:?} not balanced: {e}"))?;
            check_nesting(tail).map_err(|e| format!("tail {tail:?} leaves its element: {e}"))?;
        }
        if self.expect.safe {
            for (what, html) in [("append", patch.append.as_str()), ("tail", tail)] {
                let found = violations(html);
                if !found.is_empty() {
                    return Err(format!("script-capable {what} {html:?}: {found:?}"));
                }
            }
        }
        Ok(())
    }

    /// Start tags of the open elements, outermost first (their content
    /// does not matter to the nesting of what follows).
    fn start_tags(&self) -> String {
        let mut starts = String::new();
        for end_tags in &self.open {
            for tag in tags(end_tags).iter().rev() {
                starts.push('<');
                starts.push_str(&tag.name);
                starts.push('>');
            }
        }
        starts
    }

    /// After [`Stream::finish`]'s patch: nothing is left open.
    pub fn finished(&self, stream: &Stream) -> Result<(), String> {
        match (self.open.is_empty(), stream.open_end_tags().is_empty()) {
            (true, true) => Ok(()),
            _ => Err(format!(
                "left open after finish: {:?} ({:?})",
                self.open,
                stream.open_end_tags()
            )),
        }
    }
}

// ---------------------------------------------------------------------------
// Linear time
// ---------------------------------------------------------------------------

/// How much slower than its size-scaled one-shot render an input may be
/// before it is a finding (issue 23): than a one-shot render of as many
/// bytes of ordinary markdown, or, for a stream, than the one-shot render
/// of the same input when that is slower (see [`LinearTime::judge`]).
pub const SLOWDOWN_LIMIT: f64 = 100.0;

/// Inputs shorter than this are budgeted as if they were this long: below
/// it, fixed costs and the clock's resolution, not the input, decide.
pub const BUDGET_FLOOR_BYTES: usize = 4096;

/// The time budget of an input: [`SLOWDOWN_LIMIT`] times what a one-shot
/// render of that many bytes of ordinary markdown takes in this build,
/// measured once per process ([`LinearTime::get`]).
///
/// Work is timed on the wall clock; only when that exceeds the budget is
/// it run again and its thread's CPU time read (Linux's
/// `/proc/thread-self/stat`, in 10 ms ticks), so a machine busy with
/// other work (the campaigns run at `nice 19`) does not make a finding,
/// and the fast path reads no file.
#[derive(Debug, Clone, Copy)]
pub struct LinearTime {
    /// Nanoseconds per byte of the calibration render.
    pub ns_per_byte: f64,
}

impl LinearTime {
    /// The process's calibration, measured on first use.
    pub fn get() -> LinearTime {
        static CALIBRATION: OnceLock<LinearTime> = OnceLock::new();
        *CALIBRATION.get_or_init(LinearTime::calibrate)
    }

    /// The fastest of a few one-shot renders of [`calibration_markdown`].
    fn calibrate() -> LinearTime {
        let markdown = calibration_markdown();
        let options = Options::default();
        let fastest = (0..5)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(citemark::render(&markdown, &options));
                start.elapsed()
            })
            .min()
            .unwrap_or_default();
        LinearTime {
            ns_per_byte: fastest.as_nanos() as f64 / markdown.len() as f64,
        }
    }

    /// The budget of an input of `len` bytes.
    pub fn budget(&self, len: usize) -> Duration {
        let nanos = SLOWDOWN_LIMIT * self.ns_per_byte * len.max(BUDGET_FLOOR_BYTES) as f64;
        Duration::from_nanos(nanos as u64)
    }

    /// Runs `work` (of an input of `len` bytes) and returns what it
    /// returned, or what took too long (see [`LinearTime::judge`]).
    pub fn check<T>(
        &self,
        len: usize,
        what: &str,
        mut work: impl FnMut() -> T,
    ) -> Result<T, String> {
        let start = Instant::now();
        let value = work();
        let wall = start.elapsed();
        self.judge(len, what, wall, None::<fn()>, || {
            std::hint::black_box(work());
        })?;
        Ok(value)
    }

    /// Judges work on an input of `len` bytes that took `wall`: over the
    /// budget, `rerun` does the same work again and its CPU time decides.
    /// `one_shot`, given for work that streams the input, renders it in one
    /// go: over the size-scaled budget, the budget is [`SLOWDOWN_LIMIT`]
    /// times the fastest of a few of those renders, when that is more. (A
    /// line of 4,096 `<` takes 18 times as long to render at all as
    /// ordinary markdown of its size: streaming it is not slow for that.
    /// What the check is for, a cost that grows faster than the input,
    /// still shows, as a ratio that grows with the length.)
    pub fn judge(
        &self,
        len: usize,
        what: &str,
        wall: Duration,
        one_shot: Option<impl Fn()>,
        rerun: impl FnOnce(),
    ) -> Result<(), String> {
        let mut budget = self.budget(len);
        if wall <= budget {
            return Ok(());
        }
        if let Some(one_shot) = one_shot {
            let fastest = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    one_shot();
                    start.elapsed()
                })
                .min()
                .unwrap_or_default();
            budget = budget.max(fastest.mul_f64(SLOWDOWN_LIMIT));
            if wall <= budget {
                return Ok(());
            }
        }
        let Some(before) = thread_cpu_time() else {
            return Ok(()); // no CPU clock: the wall clock alone is not evidence
        };
        rerun();
        let cpu = thread_cpu_time().map_or(Duration::ZERO, |after| after.saturating_sub(before));
        // (One tick of slack for the clock's resolution.)
        if cpu > budget + Duration::from_millis(10) {
            return Err(format!(
                "{what} of {len} bytes took {cpu:?} of CPU ({wall:?} wall), over its budget of \
                 {budget:?} ({SLOWDOWN_LIMIT}x the one-shot time of max({len}, \
                 {BUDGET_FLOOR_BYTES}) bytes at {:.1} ns/byte, or of the input's own)",
                self.ns_per_byte
            ));
        }
        Ok(())
    }
}

/// The calling thread's CPU time (user + system), from
/// `/proc/thread-self/stat` in clock ticks of 10 ms; `None` off Linux.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name, which may hold spaces: state is the
    // 3rd field, utime the 14th, stime the 15th.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// About 32 KiB of ordinary answer markdown: paragraphs with emphasis,
/// links and citations, a list, a quote, a table, a code block.
pub fn calibration_markdown() -> String {
    let section = "## Findings\n\n\
        Revenue grew **4%** in *EMEA* [1], led by [the new plan](https://example.com/plan) \
        and <cite id=\"call_1\">the regional query</cite>; see also [2, 3].\n\n\
        - First point, with `code` and a link to https://www.example.org/a?b=c\n\
        - Second point [1]\n  - nested, ~~struck~~ text\n\n\
        > A quoted remark that goes on for a while, with _emphasis_ and a footnote.\n\n\
        | Region | Growth |\n|---|---:|\n| EMEA | 4% |\n| APAC | 2% |\n\n\
        ```rust\nfn main() {\n    println!(\"{}\", 1 + 2);\n}\n```\n\n";
    section.repeat(32 * 1024 / section.len() + 1)
}
