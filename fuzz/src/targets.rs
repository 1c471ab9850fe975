//! What each fuzz target does with its input bytes, for the targets in
//! `fuzz_targets/` and for `tests/fuzz_regressions.rs`, which replays the
//! saved inputs on stable Rust (it includes this file, and
//! `tests/support/checks.rs` as `crate::checks`).
//!
//! Each target returns `Err` saying which property an input broke; a panic
//! is a finding too.
//!
//! # Input format (`render` and `stream`)
//! An options header, then the markdown (every byte left). Zero header
//! bytes are [`Options::default`], so `printf '\0\0\0\0\0%s' "$markdown"`
//! is an input; bytes past the end read as zero.
//!
//! | byte | bits | meaning |
//! |---|---|---|
//! | 0 | 0-1 | mode: link, button, icon (3: link) |
//! |   | 2 | embedded |
//! |   | 3-4 | images: show, link, alt (3: show) |
//! |   | 5 | no extended autolinks |
//! | 1 | 0-1 | raw HTML: sanitize, escape, strip (3: sanitize) |
//! |   | 2 | raw HTML dangerously passed through |
//! |   | 3 | every URL scheme allowed (dangerous) |
//! |   | 4-5 | `link_rel`: default, none, a string (3: default) |
//! |   | 6-7 | `link_target`: none, `_blank`, a string (3: none) |
//! | 2 | 0-4 | citation syntaxes turned off: cite tags, markers, short links, query links, recovery |
//! |   | 5 | `id_prefix`: a string |
//! |   | 6 | short-link patterns: none |
//! |   | 7 | short-link patterns: one more, from two strings (template, key) |
//! | 3 | 3 | sources known (else `None`) |
//! |   | 4-6 | marker spellings: Copilot's on, prompt templates' on, file search's off |
//! |   | 7 | math off |
//! |   | 0-2 | with this many sources, each a flags byte (id, index, title, href, excerpt: bits 0-4) then a string per field set (an index is one byte) |
//! | 4 | 0-1 | this many aliases, each two strings |
//!
//! A string is a length byte and that many bytes, decoded lossily; the
//! strings follow the header in the order above.
//!
//! `stream` reads, after the strings, a chunking byte (bits 0-1: bytes
//! with `push_bytes`, text with `push`, text with `push_deferred` and
//! `tail_into`, checking `tail_change` against it; bits 2-7: how many chunk-length bytes follow, each a chunk
//! of 1 to 64 bytes, used in turn), then those bytes, then the markdown.
//!
//! # `adapters` and `options_json`
//! `adapters`: the bytes are JSON; every provider's adapter reads it, and
//! its markdown is rendered with its options. `options_json`: JSON, then
//! optionally a NUL and markdown: read as options, as a sources list and
//! as sources-and-aliases; what is read renders the markdown.

use citemark::adapters::{adapt, Provider};
use std::time::{Duration, Instant};

use citemark::{
    render, CitationIndex, Images, Mode, Occurrence, Options, RawHtml, ShortLinkPattern, Source,
    Stream, StreamedHtml, Syntaxes, Typing, UrlPolicy,
};

use crate::checks::{check_output, Expect, LinearTime, PatchChecker};

/// A fuzz target: runs its input and says which property it broke.
pub type Target = fn(&[u8]) -> Result<(), String>;

/// The fuzz targets, by name.
pub const TARGETS: [(&str, Target); 4] = [
    ("render", render_target),
    ("stream", stream_target),
    ("adapters", adapters_target),
    ("options_json", options_json_target),
];

/// The input's bytes, read front to back; zero once they run out.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&first, rest)) => {
                self.bytes = rest;
                first
            }
            None => 0,
        }
    }

    fn take(&mut self, len: usize) -> &'a [u8] {
        let (taken, rest) = self.bytes.split_at(len.min(self.bytes.len()));
        self.bytes = rest;
        taken
    }

    fn string(&mut self) -> String {
        let len = usize::from(self.byte());
        String::from_utf8_lossy(self.take(len)).into_owned()
    }

    fn rest(self) -> &'a [u8] {
        self.bytes
    }
}

/// The options the header spells (see the module's table).
fn options(input: &mut Reader) -> Options {
    let [b0, b1, b2, b3, b4] = [(); 5].map(|()| input.byte());
    let bits = |byte: u8, shift: u8, mask: u8| (byte >> shift) & mask;
    let mut options = Options::default()
        .with_mode([Mode::Link, Mode::Button, Mode::Icon, Mode::Link][usize::from(bits(b0, 0, 3))])
        .with_embedded(bits(b0, 2, 1) == 1)
        .with_images(
            [Images::Show, Images::Link, Images::Alt, Images::Show][usize::from(bits(b0, 3, 3))],
        )
        .with_autolinks(bits(b0, 5, 1) == 0)
        .with_raw_html(
            [
                RawHtml::Sanitize,
                RawHtml::Escape,
                RawHtml::Strip,
                RawHtml::Sanitize,
            ][usize::from(bits(b1, 0, 3))],
        );
    if bits(b1, 2, 1) == 1 {
        options.raw_html = RawHtml::DangerouslyPassThrough;
    }
    if bits(b1, 3, 1) == 1 {
        options.urls = UrlPolicy::DangerouslyAllowAny;
    }
    match bits(b1, 4, 3) {
        1 => options.link_rel = None,
        2 => options.link_rel = Some(input.string()),
        _ => {}
    }
    match bits(b1, 6, 3) {
        1 => options.link_target = Some("_blank".to_owned()),
        2 => options.link_target = Some(input.string()),
        _ => {}
    }
    let off = |bit: u8| bits(b2, bit, 1) == 1;
    let on = |bit: u8| bits(b3, bit, 1) == 1;
    options.syntaxes = Syntaxes {
        cite_tags: !off(0),
        markers: !off(1),
        short_links: !off(2),
        query_links: !off(3),
        recovery: !off(4),
        copilot_markers: on(4),
        prompt_markers: on(5),
        file_search_markers: !on(6),
    };
    options = options.with_math(!on(7));
    if off(5) {
        options.id_prefix = input.string();
    }
    if off(6) {
        options.short_link_patterns.clear();
    }
    if off(7) {
        let (template, key) = (input.string(), input.string());
        // (A pattern the constructor refuses is a caller's error, not ours.)
        if let Ok(pattern) = ShortLinkPattern::new(&template, &key) {
            options.short_link_patterns.push(pattern);
        }
    }
    if bits(b3, 3, 1) == 1 {
        let sources = (0..bits(b3, 0, 7)).map(|_| source(input)).collect();
        options.sources = Some(sources);
    }
    for _ in 0..bits(b4, 0, 3) {
        let (from, to) = (input.string(), input.string());
        options.aliases.insert(from, to);
    }
    options
}

/// One source: a flags byte, then its fields.
fn source(input: &mut Reader) -> Source {
    let flags = input.byte();
    let mut source = Source::default();
    let has = |bit: u8| flags >> bit & 1 == 1;
    if has(0) {
        source.id = Some(input.string());
    }
    if has(1) {
        source.index = Some(u32::from(input.byte()));
    }
    if has(2) {
        source.title = Some(input.string());
    }
    if has(3) {
        source.href = Some(input.string());
    }
    if has(4) {
        source.excerpt = Some(input.string());
    }
    source
}

/// `render` with arbitrary options: the output has every property, in
/// linear time.
pub fn render_target(data: &[u8]) -> Result<(), String> {
    let mut input = Reader { bytes: data };
    let options = options(&mut input);
    let markdown = String::from_utf8_lossy(input.rest());
    let out = LinearTime::get().check(markdown.len(), "render", || render(&markdown, &options))?;
    check_output(&out.html, &out.citations.occurrences, Expect::of(&options))
}

/// How `stream_target` hands the message over.
#[derive(Debug, Clone, Copy)]
enum Feed {
    Bytes,
    Text,
    Deferred,
}

/// A message streamed in arbitrary chunks: every patch well formed, and
/// the patches assembled equal to the one-shot render, citations and index
/// included, in linear time.
pub fn stream_target(data: &[u8]) -> Result<(), String> {
    let mut input = Reader { bytes: data };
    let options = options(&mut input);
    let chunking = input.byte();
    let feed = [Feed::Bytes, Feed::Text, Feed::Deferred, Feed::Bytes][usize::from(chunking & 3)];
    let sizes: Vec<usize> = input
        .take(usize::from(chunking >> 2))
        .iter()
        .map(|&b| usize::from(b % 64) + 1)
        .collect();
    let bytes = input.rest();
    let markdown = String::from_utf8_lossy(bytes);
    let whole = render(&markdown, &options);
    let mut checker = PatchChecker::new(Expect::of(&options));
    let streamed = stream_in_chunks(bytes, &sizes, feed, &options, Some(&mut checker))?;
    let one_shot = || {
        std::hint::black_box(render(&markdown, &options));
    };
    LinearTime::get()
        .judge(
            bytes.len(),
            "stream",
            streamed.spent,
            Some(one_shot),
            || {
                let _ = stream_in_chunks(bytes, &sizes, feed, &options, None);
            },
        )
        .map_err(|e| format!("{e}; {feed:?} in chunks of {sizes:?}"))?;
    if streamed.html != whole.html {
        return Err(format!(
            "stream != render ({feed:?} in chunks of {sizes:?})\n  stream: {:?}\n  render: {:?}",
            streamed.html, whole.html
        ));
    }
    if streamed.citations != whole.citations.occurrences {
        return Err("streamed citations != render's occurrences".to_owned());
    }
    if streamed.index != whole.citations {
        return Err("stream's citation index != render's".to_owned());
    }
    check_output(&streamed.html, &streamed.citations, Expect::of(&options))
}

/// What a stream made of a message.
struct Streamed {
    /// The patches' HTML and citations, assembled.
    html: String,
    citations: Vec<Occurrence>,
    /// [`Stream::citation_index`] after finishing.
    index: CitationIndex,
    /// The time spent inside the stream's calls (not in the checks).
    spent: Duration,
}

/// `bytes` pushed in chunks of `sizes` (in turn; all at once when empty),
/// every patch checked by `checker` when there is one.
fn stream_in_chunks(
    bytes: &[u8],
    sizes: &[usize],
    feed: Feed,
    options: &Options,
    mut checker: Option<&mut PatchChecker>,
) -> Result<Streamed, String> {
    let mut stream = Stream::new(options.clone());
    let mut assembled = StreamedHtml::default();
    let text = String::from_utf8_lossy(bytes);
    let (mut tail, mut shown) = (String::new(), String::new());
    let mut typing = Typing::Pushed;
    let mut spent = Duration::ZERO;
    let mut from = 0;
    let mut sizes = sizes.iter().cycle();
    let len = match feed {
        Feed::Bytes => bytes.len(),
        Feed::Text | Feed::Deferred => text.len(),
    };
    while from < len {
        let mut to = (from + sizes.next().copied().unwrap_or(len)).min(len);
        let chunk = match feed {
            Feed::Bytes => "",
            Feed::Text | Feed::Deferred => {
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                &text[from..to]
            }
        };
        // What the stream said typing `chunk` would make the tail. (The
        // checks are not timed: only the stream's calls are.)
        let after = typing.after(chunk);
        let predicted = (matches!(feed, Feed::Deferred) && after != Typing::Pushed).then(|| {
            let (_, before) = typing.point().unwrap_or_default();
            let escaped = after
                .shown(chunk)
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            let mut predicted = shown.clone();
            predicted.insert_str(predicted.len().saturating_sub(before), &escaped);
            predicted
        });
        let start = Instant::now();
        let mut patch = match feed {
            Feed::Bytes => stream.push_bytes(&bytes[from..to]),
            Feed::Text => stream.push(chunk),
            Feed::Deferred => {
                let patch = stream.push_deferred(chunk);
                stream.tail_into(&mut tail);
                if patch.ends_tail() {
                    shown.clear();
                }
                stream.tail_change().apply_to(&mut shown);
                typing = stream.typing();
                patch
            }
        };
        spent += start.elapsed();
        if let Feed::Deferred = feed {
            if let Some(predicted) = predicted {
                // (It commits nothing but the code lines it ends, which go
                // where the host showed them: before the tail.)
                let code = matches!(after, Typing::Verbatim { .. });
                let redone = patch.rewind || patch.mark || patch.empty.is_some();
                let seen = [patch.append.as_str(), &tail].concat();
                if redone || !(code || patch.append.is_empty()) || predicted != seen {
                    return Err(format!(
                        "typing {chunk:?} made the tail {tail:?} (patch {patch:?}), not {predicted:?}"
                    ));
                }
            }
            // The tail's changes, applied, give the tail.
            if shown != tail {
                return Err(format!(
                    "tail changes applied give {shown:?}, the tail is {tail:?}"
                ));
            }
            patch.tail = Some(tail.clone());
        }
        from = to;
        if let Some(checker) = checker.as_deref_mut() {
            checker.check(&patch, &stream)?;
        }
        assembled.apply(&patch);
    }
    let start = Instant::now();
    let last = stream.finish();
    spent += start.elapsed();
    if let Some(checker) = checker {
        checker.check(&last, &stream)?;
        checker.finished(&stream)?;
    }
    assembled.apply(&last);
    Ok(Streamed {
        html: assembled.html().to_owned(),
        citations: assembled.citations().to_vec(),
        index: stream.citation_index(),
        spent,
    })
}

/// Every adapter on arbitrary JSON: none panics, and what it makes renders
/// with every property.
pub fn adapters_target(data: &[u8]) -> Result<(), String> {
    let Ok(response) = serde_json::from_slice::<serde_json::Value>(data) else {
        return Ok(());
    };
    for provider in Provider::ALL {
        let adapted = adapt(provider, &response);
        let options = adapted.options();
        let out = LinearTime::get().check(adapted.markdown.len(), "adapted render", || {
            render(&adapted.markdown, &options)
        })?;
        check_output(&out.html, &out.citations.occurrences, Expect::of(&options))
            .map_err(|e| format!("{}: {e}", provider.name()))?;
    }
    Ok(())
}

/// Options, sources and sources-with-aliases from arbitrary JSON: no
/// panic, and whatever is accepted renders the markdown with every
/// property, safety included (JSON cannot choose a dangerous setting).
pub fn options_json_target(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let (json, markdown) = text.split_once('\0').unwrap_or((&text, ""));
    let markdown = match markdown {
        "" => "See [1] and <cite id=\"a\">a</cite>, [x](https://h/-/ai/conversations/c/call/b).",
        markdown => markdown,
    };
    let mut accepted = Vec::new();
    if let Ok(options) = Options::from_json(json) {
        accepted.push(options);
    }
    if let Ok(sources) = Options::sources_from_json(json) {
        let mut options = Options::default();
        options.sources = sources;
        accepted.push(options);
    }
    if let Ok(options) = Options::default().with_sources_json(json) {
        accepted.push(options);
    }
    for options in accepted {
        let expect = Expect::of(&options);
        if !expect.safe {
            return Err(format!("JSON chose a dangerous setting: {options:?}"));
        }
        let out = render(markdown, &options);
        check_output(&out.html, &out.citations.occurrences, expect)?;
    }
    Ok(())
}
