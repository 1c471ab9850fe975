//! What several integration tests share: the sample answers and a
//! generator of random citation-heavy markdown.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};

use citemark::{Images, Mode, Occurrence, Options, RawHtml, Source, Stream, StreamedHtml};
use proptest::prelude::*;

/// The files in `tests/<dir>` ending in `.<extension>`, sorted.
pub fn files(dir: &str, extension: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == extension) && !p.ends_with("README.md"))
        .collect();
    paths.sort();
    paths
}

/// How many cases a property test runs: `PROPTEST_CASES` if set (for a
/// deeper search than CI's), else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

/// A file's name without its extension.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .expect("UTF-8 name")
        .to_owned()
}

/// A realistic answer from `tests/samples/`, with its sources if it has any.
pub struct Sample {
    pub name: String,
    pub markdown: String,
    pub options: Options,
}

pub fn samples() -> Vec<Sample> {
    files("samples", "md")
        .into_iter()
        .map(|path| {
            let name = stem(&path);
            let markdown = std::fs::read_to_string(&path).expect("sample is UTF-8");
            let sources = path.with_file_name(format!("{name}.sources.json"));
            let options = match std::fs::read_to_string(&sources) {
                Ok(json) => Options::default()
                    .with_sources_json(&json)
                    .unwrap_or_else(|e| panic!("{}: {e}", sources.display())),
                Err(_) => Options::default(),
            };
            Sample {
                name,
                markdown,
                options,
            }
        })
        .collect()
}

/// Fragments that exercise citation syntax and its edges, glued at random.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[1]".to_owned()),
        Just("[2, 3]".to_owned()),
        Just("[1-3]".to_owned()),
        Just("[1#p=2]".to_owned()),
        Just("<cite id=\"a\">".to_owned()),
        Just("<cite>".to_owned()),
        Just("</cite>".to_owned()),
        Just("<cite id='b'/>".to_owned()),
        Just("([l](https://h/-/ai/conversations/c/call/a))".to_owned()),
        Just("https://h/-/ai/conversations/c/call/b".to_owned()),
        Just("[q](https://h/-/open-query?query=%7B%22a%22%3A1%7D%7D)".to_owned()),
        Just("www.example.com".to_owned()),
        Just("**".to_owned()),
        Just("_".to_owned()),
        Just("`".to_owned()),
        Just("\n".to_owned()),
        Just("\n\n".to_owned()),
        Just("\n```\n".to_owned()),
        Just("| a | b |\n|---|---|\n".to_owned()),
        Just("> ".to_owned()),
        Just("- ".to_owned()),
        Just("1. ".to_owned()),
        Just("    ".to_owned()),
        Just("# ".to_owned()),
        Just("---".to_owned()),
        Just("<details>\n".to_owned()),
        Just("</details>\n".to_owned()),
        Just("<b>".to_owned()),
        Just("</b>".to_owned()),
        Just("<kbd>K</kbd>".to_owned()),
        Just("<br>".to_owned()),
        Just("<sup title='>'>".to_owned()),
        Just("</sup>".to_owned()),
        Just("<a@b.co>".to_owned()),
        Just(" < ".to_owned()),
        Just("\\".to_owned()),
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("[^1]".to_owned()),
        Just("[1]: https://x/\n".to_owned()),
        Just("[a]".to_owned()),
        Just("[a]: /a\n".to_owned()),
        Just("[^1]: note\n".to_owned()),
        Just("&amp;".to_owned()),
        Just("&#".to_owned()),
        Just("![i](https://x/i.png)".to_owned()),
        Just("<https://a.b/c>".to_owned()),
        Just("a@b.co".to_owned()),
        Just("~~~\n".to_owned()),
        Just("~~".to_owned()),
        Just("*".to_owned()),
        Just("  \n".to_owned()),
        Just("\\\n".to_owned()),
        Just("===\n".to_owned()),
        Just("<!-- c -->".to_owned()),
        Just("- [ ] ".to_owned()),
        Just("> - ".to_owned()),
        Just("<cite id=\"a\">**b** [1]</cite>".to_owned()),
        Just("http://".to_owned()),
        Just(").".to_owned()),
        Just("!".to_owned()),
        Just("$5 ".to_owned()),
        // Math in its four spellings, and other products' markers.
        Just("$".to_owned()),
        Just("$$".to_owned()),
        Just("$x_1$".to_owned()),
        Just("\\(".to_owned()),
        Just("\\)".to_owned()),
        Just("\\[".to_owned()),
        Just("\\]".to_owned()),
        Just("\u{3010}1\u{2020}source\u{3011}".to_owned()),
        Just("[^1^]".to_owned()),
        Just("^".to_owned()),
        Just("(€1) ".to_owned()),
        Just("Why ".to_owned()),
        Just("Ht".to_owned()),
        Just("WWW.".to_owned()),
        // Words, with whitespace wider than a byte (no-break, ideographic).
        "[a-zé✓ \u{a0}\u{3000}]{0,6}",
        // Characters whose width or class differs between byte, char and
        // CommonMark views: tab, CR, NEL, line separator, zero-width
        // space, a combining accent, an emoji.
        "[\t\r\u{85}\u{2028}\u{200b}\u{301}😀]",
        // Text written without spaces: CJK words and the marks that end
        // a word to the tail, before what reads the character before it.
        "[中文。，、！？；：]{1,6}",
        Just("。www.a.io".to_owned()),
        Just("，**".to_owned()),
        Just("。_".to_owned()),
        Just("到**¥3".to_owned()),
    ]
}

/// Random markdown built from [`fragment`]s.
pub fn markdown() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..40).prop_map(|parts| parts.concat())
}

/// Random markdown around code blocks: fences of each kind and length,
/// indented or not, closing or not, indented code with blank lines and
/// tabs, and text that is markup outside code.
#[allow(dead_code)]
pub fn code_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("```".to_owned()),
        Just("```rust".to_owned()),
        Just("````".to_owned()),
        Just("~~~".to_owned()),
        Just("  ```".to_owned()),
        Just("   ```".to_owned()),
        Just("1. ".to_owned()),
        Just("    ".to_owned()),
        Just("\t".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("\n\n".to_owned()),
        Just("`".to_owned()),
        Just("~".to_owned()),
        Just("<b>&amp;".to_owned()),
        Just("[1] **a**".to_owned()),
        Just("- ".to_owned()),
        Just("> ".to_owned()),
        Just("\r\n".to_owned()),
        // (An item's code block, and its lines: the item's indentation.)
        Just("1. a\n   ```\n".to_owned()),
        Just("- ~~~\n".to_owned()),
        Just("\n   ".to_owned()),
        Just("\n  ".to_owned()),
        "[a-z{}();é更😀]{1,5}",
    ];
    prop::collection::vec(part, 0..40).prop_map(|parts| parts.concat())
}

/// Random prose being typed: words (ASCII and beyond), spaces and punctuation (what a
/// paragraph's line may take as typed), words that start a URL, and the
/// syntax around them that stops it: blocks, lists, quotes, emphasis,
/// code, markers, references, tags.
#[allow(dead_code)]
pub fn prose_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        8 => "[a-zA-Z0-9]{1,7}",
        6 => Just(" ".to_owned()),
        2 => Just(", ".to_owned()),
        1 => Just(",".to_owned()),
        1 => Just("  ".to_owned()),
        1 => Just("h".to_owned()),
        1 => Just(" ht".to_owned()),
        1 => Just(" http".to_owned()),
        1 => Just(" www".to_owned()),
        1 => Just(" w".to_owned()),
        1 => Just("s".to_owned()),
        1 => Just("\n".to_owned()),
        1 => Just("\n\n".to_owned()),
        1 => Just("- ".to_owned()),
        1 => Just("  - ".to_owned()),
        1 => Just("* ".to_owned()),
        1 => Just("  * ".to_owned()),
        1 => Just("1. ".to_owned()),
        1 => Just("> ".to_owned()),
        1 => Just(">".to_owned()),
        1 => Just("# ".to_owned()),
        2 => Just("\n## ".to_owned()),
        2 => Just(" ##".to_owned()),
        1 => Just("**".to_owned()),
        1 => Just("_".to_owned()),
        1 => Just("`".to_owned()),
        // What a code span shows as typed (`Typing::CodeSpan`).
        1 => Just("::".to_owned()),
        1 => Just("{x}".to_owned()),
        1 => Just("a_b".to_owned()),
        1 => Just("~".to_owned()),
        1 => Just("@".to_owned()),
        1 => Just("#".to_owned()),
        1 => Just("^+=".to_owned()),
        1 => Just("[1]".to_owned()),
        // A link's label being typed (`[` alone, a prompt template's
        // marker word, a task box's `x`).
        2 => Just("[".to_owned()),
        1 => Just("[Sou".to_owned()),
        1 => Just("rce: 1".to_owned()),
        1 => Just("[x".to_owned()),
        1 => Just("[^1]".to_owned()),
        1 => Just("[^1]: note\n".to_owned()),
        1 => Just("[a]".to_owned()),
        1 => Just("[a]: /a\n".to_owned()),
        1 => Just("  \n".to_owned()),
        1 => Just("|".to_owned()),
        1 => Just("---\n".to_owned()),
        1 => Just("===\n".to_owned()),
        1 => Just("<b>".to_owned()),
        1 => Just("&amp;".to_owned()),
        1 => Just(".".to_owned()),
        1 => Just(". ".to_owned()),
        1 => Just("w.".to_owned()),
        1 => Just("'".to_owned()),
        1 => Just("\"".to_owned()),
        1 => Just("?".to_owned()),
        1 => Just(";".to_owned()),
        1 => Just("-".to_owned()),
        1 => Just(":".to_owned()),
        1 => Just("www.".to_owned()),
        1 => Just("http://".to_owned()),
        1 => Just("```\n".to_owned()),
        1 => Just("    ".to_owned()),
        1 => Just("<details>\n\n".to_owned()),
        1 => Just("\t".to_owned()),
        1 => Just("<cite id=\"a\">b</cite>".to_owned()),
        // What the preview holds back whole while it is typed: a link's
        // destination, a tag, an autolink (`Typing::Held`).
        1 => Just("[l](https://x.y/".to_owned()),
        1 => Just("[![i](https://x.y/".to_owned()),
        1 => Just(")](https://a.b/".to_owned()),
        1 => Just("[![".to_owned()),
        1 => Just("[![B s".to_owned()),
        1 => Just("[![i][r".to_owned()),
        1 => Just("][l".to_owned()),
        1 => Just("[<img alt=\"a b\" src=\"https://x.y/".to_owned()),
        // An HTML block's lines, their tags and comments typed.
        1 => Just("<p align=\"center\">\n".to_owned()),
        1 => Just("  <a href=\"https://x.y/".to_owned()),
        1 => Just("<!-- c".to_owned()),
        1 => Just("<".to_owned()),
        1 => Just("\" height=\"20\">](https://a.b/".to_owned()),
        1 => Just("](".to_owned()),
        1 => Just("]".to_owned()),
        1 => Just("([l](h".to_owned()),
        1 => Just(")".to_owned()),
        1 => Just("<cite id=\"c".to_owned()),
        1 => Just("\">".to_owned()),
        1 => Just("<https://a.b/".to_owned()),
        1 => Just(">".to_owned()),
        1 => Just("/".to_owned()),
        1 => Just("$".to_owned()),
        1 => Just("%".to_owned()),
        // Words beyond ASCII, their punctuation and spaces, and what of
        // them typing leaves to the stream (docs/streaming.md, "Typing
        // shown by the host").
        2 => Just("déjà".to_owned()),
        1 => Just("中文".to_owned()),
        1 => Just("。".to_owned()),
        1 => Just("「".to_owned()),
        1 => Just("，".to_owned()),
        1 => Just("€".to_owned()),
        1 => Just("🙂".to_owned()),
        1 => Just("\u{a0}".to_owned()),
        1 => Just("\u{3000}".to_owned()),
        1 => Just("【4†source】".to_owned()),
    ];
    prop::collection::vec(part, 0..60).prop_map(|parts| parts.concat())
}

/// Random block quotes, line by line: paragraphs with spans and markers,
/// lines of the quote's markers alone (blank lines of the quote), deeper
/// markers, indented ones, list items in quotes, and blank lines. (Each
/// line is quoted or blank, and holds no `[` but a marker's, nor a
/// backslash: the preview reads an unclosed `[` as going on past a quote
/// that interrupts a paragraph at the margin, and `[` in a code span or
/// after a backslash as unclosed, where the caches, rightly, do not.)
#[allow(dead_code)]
pub fn quote_markdown() -> impl Strategy<Value = String> {
    let marker = prop_oneof![
        4 => Just("> "),
        2 => Just(">"),
        1 => Just("> > "),
        1 => Just(">>"),
        1 => Just("  > "),
        1 => Just(">     "),
    ];
    let part = prop_oneof![
        4 => "[a-z]{1,5}",
        3 => Just(" ".to_owned()),
        1 => Just("  ".to_owned()),
        1 => Just("**".to_owned()),
        1 => Just("`".to_owned()),
        1 => Just("[1]".to_owned()),
        1 => Just(">".to_owned()),
        1 => Just("- ".to_owned()),
    ];
    let line = (marker, prop::collection::vec(part, 0..8))
        .prop_map(|(marker, parts)| [marker.to_owned(), parts.concat()].concat());
    let line = prop_oneof![8 => line, 1 => Just(String::new())];
    prop::collection::vec(line, 1..12).prop_map(|lines| lines.join("\n"))
}

/// Random markdown around links being typed: labels and destinations cut
/// short, in `(…)` or not, then anything that may end or break them.
#[allow(dead_code)]
pub fn link_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("([".to_owned()),
        Just("[".to_owned()),
        Just("](".to_owned()),
        Just("](https://h/-/ai/conversations/c_1/call/a_b".to_owned()),
        Just("](".to_owned()),
        Just(")".to_owned()),
        Just("]".to_owned()),
        Just("(".to_owned()),
        Just("[1".to_owned()),
        "[a-z_:/.?#=%+,;@'\\-]{1,4}",
        "[a-zé \u{a0}]{1,6}",
        fragment(),
    ];
    prop::collection::vec(part, 0..24).prop_map(|parts| parts.concat())
}

/// Options a message may be rendered with: no sources (as while they have
/// not arrived) or two, each mode, embedded or not, each safe raw-HTML
/// policy, bare URLs linked or not.
pub fn options() -> impl Strategy<Value = Options> {
    (
        any::<bool>(),
        0..3usize,
        any::<bool>(),
        0..3usize,
        any::<bool>(),
    )
        .prop_map(|(with_sources, mode, embedded, raw_html, autolinks)| {
            let options = Options::default()
                .with_mode([Mode::Link, Mode::Button, Mode::Icon][mode])
                .with_embedded(embedded)
                .with_raw_html([RawHtml::Sanitize, RawHtml::Escape, RawHtml::Strip][raw_html])
                .with_autolinks(autolinks);
            if !with_sources {
                return options;
            }
            options.with_sources(vec![
                Source::with_id("a").with_title("A"),
                Source::with_id("b").with_href("https://b.example/"),
            ])
        })
}

/// Random markdown around images being typed (`![alt](src)`, in links,
/// holding links, raw `<img>`), for the image policies.
#[allow(dead_code)]
pub fn image_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("![".to_owned()),
        Just("[".to_owned()),
        Just("](".to_owned()),
        Just("https://x/i.png".to_owned()),
        Just("/i.png \"t\"".to_owned()),
        Just(")".to_owned()),
        Just("]".to_owned()),
        Just("<img src=\"https://x/i.png\">".to_owned()),
        Just("<cite id=\"a\">".to_owned()),
        Just("</cite>".to_owned()),
        "[a-z *]{1,4}",
        fragment(),
    ];
    prop::collection::vec(part, 0..24).prop_map(|parts| parts.concat())
}

/// [`options`] with each image policy.
#[allow(dead_code)]
pub fn options_with_images() -> impl Strategy<Value = Options> {
    (options(), 0..3usize).prop_map(|(options, images)| {
        options.with_images([Images::Show, Images::Link, Images::Alt][images])
    })
}

/// Streams `message` in pieces ending at `cuts` (ascending byte offsets),
/// then finishes; returns the HTML and citations a host that keeps a
/// string assembles from the patches.
pub fn streamed_at(message: &str, cuts: &[usize], options: &Options) -> (String, Vec<Occurrence>) {
    let mut stream = Stream::new(options.clone());
    let mut assembled = StreamedHtml::default();
    let mut from = 0;
    for &cut in cuts.iter().chain([&message.len()]) {
        assembled.apply(&stream.push_bytes(&message.as_bytes()[from..cut.max(from)]));
        from = cut.max(from);
    }
    assembled.apply(&stream.finish());
    (assembled.html().to_owned(), assembled.citations().to_vec())
}
