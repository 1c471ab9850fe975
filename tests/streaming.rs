//! Streaming end to end: for every sample answer and random markdown, cut
//! into chunks every which way, the appends plus the final tail equal the
//! one-shot render byte for byte, and their citations equal its index. The
//! tail's quality is measured as the prefix rate (see `prefix_rate`).

use citemark::{render, HeldKind, Occurrence, Options, Source, Stream, StreamedHtml, Typing};
use proptest::prelude::*;

#[path = "support/checks.rs"]
mod checks;
use checks::{Expect, PatchChecker};
mod common;
use common::{markdown, samples};
#[path = "common/visible.rs"]
mod visible;
use visible::visible;

/// Streams `message` cut at `cuts` (byte offsets, any order); returns the
/// HTML and the citations.
fn stream(message: &str, cuts: &[usize], options: &Options) -> (String, Vec<Occurrence>) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (message.len() + 1)).collect();
    cuts.sort_unstable();
    common::streamed_at(message, &cuts, options)
}

fn chunked(len: usize, size: usize) -> Vec<usize> {
    (size..len).step_by(size).collect()
}

#[test]
fn samples_stream_to_their_one_shot_render() {
    for sample in samples() {
        let whole = render(&sample.markdown, &sample.options);
        for size in [1, 4, 16, 64] {
            let (html, citations) = stream(
                &sample.markdown,
                &chunked(sample.markdown.len(), size),
                &sample.options,
            );
            assert_eq!(html, whole.html, "{} at {size}-byte chunks", sample.name);
            assert_eq!(
                citations, whole.citations.occurrences,
                "{} at {size}-byte chunks",
                sample.name
            );
        }
    }
}

/// Streams `message` (default options) in chunks of each of `sizes`
/// bytes: the patches applied and the citations equal `render`'s.
fn assert_streams_as_rendered(message: &str, sizes: impl IntoIterator<Item = usize>) {
    let whole = render(message, &Options::default());
    for size in sizes {
        let (html, citations) = stream(message, &chunked(message.len(), size), &Options::default());
        assert_eq!(html, whole.html, "{message:?} at {size}-byte chunks");
        assert_eq!(citations, whole.citations.occurrences, "{message:?}");
    }
}

/// A reference nothing defines, then a `<details>` that opens after the
/// mark, then a block holding `]:` that defines nothing it names (or
/// something else): the rewind puts the text back to be committed again,
/// which reads the same `]:` again. It once did so for ever (a push never
/// returned, found by the words property test at 300,000 cases); a text
/// put back calls for no second rewind.
#[test]
fn a_rewind_that_changes_nothing_is_not_repeated() {
    for message in [
        "1. [a]\n<details>\n\n>]:\n\n=\n",
        "1. [a]\n<details>\n\n>[b]: /u\n\n=\n",
        "- [a]\n<details>\n\n> [b]: /u\n\nz\n",
        "1. [a]\n<details>\n\n>[a]: /u\n\n=\n",
        "1. [1]_40Zj www.```\n, > 4KkeFY, # 5J1gHgj[^1]  s  \nGo[1]&amp;<details>\n\n- [a]\n , Usc \
         cS7SN9, [a]`&amp;\n\n<details>\n\n> dG4g[1][a]: /a\n\n\n\thqpSOu[a][a] |<details>\n\n===\n \
         www\n\nN ===\n1. 4Y**, ",
    ] {
        assert_streams_as_rendered(message, [1, 3, 4, 1000]);
    }
}

/// A raw element an HTML block leaves open inside a quote or a list item
/// holds the children after it: a quote's first children are not committed
/// while it is open (the sanitizer closed it at their end, and the `<p>a`
/// after it went outside the `<details>`). Found by the lists-and-quotes
/// property test at 30,000 cases.
#[test]
fn a_raw_element_open_in_a_container_holds_its_next_children() {
    for message in [
        "> <details>\n> \n> a\n",
        "> <details>\n> \n> [1]- ```\n",
        "> <div>\n> \n> a\n\nb\n",
        "> <details>\n> \n> a\n> \n> </details>\n> \n> b\n",
        "- <details>\n\n  a\n\n  b\n- c\n",
        "> <details><summary>S</summary>\n>\n> - x\n> - y\n>\n> </details>\n\nafter\n",
    ] {
        assert_streams_as_rendered(message, [1, 2, 3, 4, 1000]);
    }
}

/// A list that turns loose is emptied; a rewind to the mark before it in
/// the same push withdraws it whole, and what came before it in the
/// element open at the mark stays (a patch carried both, and the host
/// emptied that element too: the code block before the list was lost).
#[test]
fn a_list_emptied_then_rewound_in_one_push_keeps_what_came_before_it() {
    for message in [
        "<details>\n\n    `\n1. [a]:\n\n1.\n-\n",
        "<details>\n\n     - ```\n1. [1][a]: /a\n\n\n1. ```\n[^1]1. # - # 1. - **\n\n\n\n<details>\n> > > - - [a]: /a\n",
    ] {
        assert_streams_as_rendered(message, 1..9);
    }
}

/// Lists whose items are lines within the inline subset (words, emphasis,
/// code spans) commit without the parser, outlines under an item too; the
/// shapes around them go the parser's way. (Debug builds, as `make test`
/// runs these, also check each such commit against the parser's.)
#[test]
fn lists_of_plain_lines_and_outlines_stream_as_rendered() {
    for message in [
        "- The *first* item\n- the `second` one\n- **third**\n\nAfter.\n",
        "1. one\n2. two\n3. three\n",
        "3) three\n4) four\n\n5) five, loose\n",
        "- a\n  - b\n  - c\n    - d\n    - e\n  - f\n- g\n  - h\n",
        "- a\n  - b\n      - too deep\n- c\n",
        "- a\n   - three spaces\n- b\n",
        "- a\n  * a star\n  - a dash\n- b\n",
        "- a\n  - b\n\n- loose after an outline\n",
        "- a\n  - b [1]\n- c\n  - www.example.com\n",
        "* one\n* two\n+ three\n",
    ] {
        assert_streams_as_rendered(message, [1, 2, 3, 4, 7, 1000]);
    }
}

/// Lines within the inline subset that hold citation markers, footnote
/// references or full references awaiting their definitions, and a
/// message's closing footnote definitions, one a line, go to the citation
/// pipeline as events read without the parser; the shapes around them go
/// the parser's way. (Debug builds, as `make test` runs these, also check
/// each such rendering against the parser's.)
#[test]
fn lines_with_markers_footnotes_and_references_stream_as_rendered() {
    for message in [
        "Revenue grew **a third** [1] in Q3[^q].\n\nIt held [2, 3]. Costs *fell*[^c] [1][^q].\n\n\
         [^q]: The **third** quarter [2].\n[^c]: Costs `opex` fell.\n",
        "- a [1]\n- b[^1] c\n\n> quoted [2][^2]\n\n[^1]: one\n[^2]: two [1]\n",
        "x [1](https://e.com) y [citation needed] [1][2] [^a b]\n\n[^a b]: spaced\n",
        "Ends unfinished [^x]\n\n[^x]: a line\nlazy, not a definition [3]\n[^y]: and [^x]\n",
        "[^d]: defined first [1]\n\nthen used[^d], twice [^d].\n",
        "See [the guide][g] and **[the FX table][fx]** [1].\n\nMore [the guide][g].\n\n\
         [g]: https://example.com/guide\n[fx]: https://example.com/fx \"FX\"\n",
        "Never defined [a b][c-d] here.\n\n- in a list [guide][g]\n- [x][y] first\n",
        // (A marker's label makes a labelled citation, not a link awaited.)
        "j[a][1] and [b][c-1]\n\n* j[a][1]\n",
    ] {
        assert_streams_as_rendered(message, [1, 2, 3, 4, 7, 1000]);
    }
}

/// Blocks are committed as the message goes, not all at `finish`: in
/// every sample that has more than a couple of blocks, most of the HTML
/// is appended before the end.
#[test]
fn samples_commit_as_they_go() {
    for sample in samples() {
        let mut stream = Stream::new(sample.options.clone());
        let mut before_finish = 0;
        for chunk in sample.markdown.as_bytes().chunks(16) {
            before_finish += stream.push_bytes(chunk).append.len();
        }
        let at_finish = stream.finish().append.len();
        let total = before_finish + at_finish;
        println!(
            "{:32} {:5.1}% appended before finish",
            sample.name,
            100.0 * before_finish as f64 / total as f64
        );
        // Footnotes keep the rest of a message open (see the stream docs).
        if !sample.markdown.contains("[^") {
            assert!(
                before_finish * 2 > total,
                "{}: only {before_finish} of {total} bytes appended before finish",
                sample.name
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(500)))]

    #[test]
    fn random_markdown_streams_to_its_one_shot_render(
        md in markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    /// A host that applies the tail's changes shows the tail.
    #[test]
    fn tail_changes_applied_give_the_tail(
        md in markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        let boundary = |mut at: usize| {
            while !md.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let mut cuts: Vec<usize> = cuts.iter().map(|c| boundary(c % (md.len() + 1))).collect();
        cuts.sort_unstable();
        let mut stream = Stream::new(options);
        let mut shown = String::new();
        let mut from = 0;
        for &cut in cuts.iter().chain([&md.len()]) {
            let patch = stream.push_deferred(&md[from..cut.max(from)]);
            from = cut.max(from);
            if patch.ends_tail() {
                shown.clear();
            }
            stream.tail_change().apply_to(&mut shown);
            prop_assert_eq!(&shown, &stream.tail(), "after {} bytes", from);
        }
    }

    #[test]
    fn images_stream_to_their_one_shot_render_under_each_policy(
        md in common::image_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options_with_images(),
    ) {
        streams_to_its_one_shot_render(&md, &cuts, &options)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(500)))]

    /// Bytes that are not all UTF-8, cut anywhere (inside a character
    /// too), stream to the render of their lossy decoding as a whole.
    #[test]
    fn bytes_stream_to_the_render_of_their_lossy_decoding(
        bytes in prop::collection::vec(
            prop_oneof![
                Just(b'a'), Just(b'\n'), Just(b'*'), Just(0x80u8), Just(0xCFu8),
                Just(0x87u8), Just(0xE2u8), Just(0x82u8), Just(0xACu8), Just(0xFFu8),
            ],
            0..40,
        ),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let options = Options::default();
        let whole = render(&String::from_utf8_lossy(&bytes), &options).html;
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut stream = Stream::new(options);
        let mut html = StreamedHtml::default();
        let mut from = 0;
        for cut in cuts.into_iter().chain([bytes.len()]) {
            html.apply(&stream.push_bytes(&bytes[from..cut]));
            from = cut;
        }
        html.apply(&stream.finish());
        prop_assert_eq!(html.html(), whole);
    }
}

/// A definition's title that opens on the line after its destination is
/// the definition's until a blank line: the blocks before it wait (issue 23).
#[test]
fn a_title_opened_on_the_next_line_keeps_the_definition_open() {
    let md = "[a]\n\n[a]: /u\n'\nt'\n";
    for size in [3, 4] {
        let (html, _) = stream(md, &chunked(md.len(), size), &Options::default());
        assert_eq!(
            html, "<p><a href=\"/u\" title=\"\nt\">a</a></p>\n",
            "{size}-byte chunks"
        );
    }
}

/// A definition whose destination is Unicode whitespace (`\u{a0}`), kept
/// as the stream committed it: its line break only is trimmed.
#[test]
fn a_definition_to_unicode_whitespace_stays_one() {
    let md = "[a]:\u{a0}\n\n<cite id=\"a\">b</cite> [a]\n";
    for size in 1..8 {
        let (html, _) = stream(md, &chunked(md.len(), size), &Options::default());
        assert_eq!(
            html,
            render(md, &Options::default()).html,
            "{size}-byte chunks"
        );
    }
}

/// A full reference to a citation marker's label, `[1][1]`, before a
/// `[`: undefined, its label pairs with the brackets after it, so the
/// stream waits for a later definition of `1` (found by the definitions'
/// host-typing property test).
#[test]
fn a_markers_full_reference_before_a_bracket_waits_for_its_definition() {
    let md = "[a]: https://x/a\n\n[1][1][a]\n[^1]: \n[1]: https://x/1";
    assert_streams_as_rendered(md, [md.len(), 1, 2, 3, 4, 7]);
}

/// Once defined, a marker is a link, and links hold no links: brackets
/// around it make no link then, where undefined they do (`[x [1]][b]`
/// links `x [1]` to `b`). The stream waits for the marker's definition
/// there (found by the definitions' host-typing property test at 300,000
/// cases: `[b]` defined first, the paragraph was taken as final).
#[test]
fn a_marker_inside_brackets_waits_for_its_definition() {
    for md in [
        "[x [1]][b]\n\n[b]: /b\n[a]: /a\n[1]: https://x/1",
        "[- - [1]\r\\[a][b c][]\n\n[B c]: /b\n[a]: https://x/a\n[1]: https://x/1",
        "a [x [1]](/u) b\n\n[1]: https://x/1",
        "[x `]` [1]][b]\n\n[b]: /b\n[a]: /a\n[1]: https://x/1",
        "[x\n[1]][b]\n\n[b]: /b\n[a]: /a\n\n[1]: https://x/1",
    ] {
        assert_streams_as_rendered(md, [md.len(), 1, 2, 3, 4, 7]);
    }
}

/// pulldown-cmark reads `[1]\[]` as a collapsed reference, dropping the
/// escaped brackets once `1` is defined: the stream waits for a later
/// definition there too (found by the definitions' host-typing property
/// test at 300,000 cases).
#[test]
fn a_marker_before_escaped_brackets_waits_for_its_definition() {
    let md = "\n[a]: https://x/a\n[a]: https://x/a \"t\"[1]\\[]\n\n[^1]: \n[1]: https://x/1";
    assert_streams_as_rendered(md, [md.len(), 1, 2, 3, 4, 7]);
    let md = "a [1]\\[] b\n\n[1]: https://x/1";
    assert_streams_as_rendered(md, [md.len(), 1, 2, 3]);
    let md = "[1][1]\\[a]\n> [a]: /q\n[^1]: \n[1]: https://x/1\n[a]: https://x/a";
    assert_streams_as_rendered(md, [md.len(), 1, 2, 3]);
}

/// An invalid byte before a character split across chunks is replaced,
/// and the split character still waits for its other bytes (issue 23).
#[test]
fn a_split_character_after_an_invalid_byte_waits_for_its_other_bytes() {
    let mut stream = Stream::new(Options::default());
    let mut html = StreamedHtml::default();
    html.apply(&stream.push_bytes(b"\x80\xCF"));
    html.apply(&stream.push_bytes(b"\x87"));
    html.apply(&stream.finish());
    assert_eq!(html.html(), "<p>\u{FFFD}\u{3C7}</p>\n");
}

/// After a blank line, a `>` starts a second quote: the tail, which goes
/// inside the first (still open), stays there (fuzzing finding 1). The
/// patch checker asks every tail to be balanced alone.
#[test]
fn a_quote_after_a_quote_keeps_the_tail_inside_the_first() {
    for md in ["> a\n\n>", "> a\n\n> b\n", "- a\n\n> b", "> - a\n\n>"] {
        assert_streams_byte_by_byte(md);
    }
}

/// `md` pushed a byte at a time, every patch checked, gives its render.
#[track_caller]
fn assert_streams_byte_by_byte(md: &str) {
    assert_streams_cut_at(md, &(1..md.len()).collect::<Vec<_>>());
}

/// `md` cut at `cuts`, every patch checked, gives its render.
#[track_caller]
fn assert_streams_cut_at(md: &str, cuts: &[usize]) {
    let html = stream_checking_steps(md, cuts, &Options::default());
    assert_eq!(
        html.ok(),
        Some(render(md, &Options::default()).html),
        "{md:?} cut at {cuts:?}"
    );
}

/// A table's tail shows what its rows render to inside the table, its
/// header (handed over with its citations) not again, and the provisional
/// index lists exactly the citations shown. (`- |` after a header is the
/// table's delimiter row, no list item; a line of backticks with a
/// backtick after them is no fence.)
#[test]
fn a_tables_tail_lists_the_citations_it_shows_once() {
    let options = Options::default().with_sources(vec![Source::with_id("a"), Source::with_id("b")]);
    let code = "      ```\t``- 更😀(- <b>&amp;\n\n`\t\t`    `````````\n```rust\t```rust\n\n  \
                ```\t\r\n\r\n````\n\n- (\t- ~~~    \t\t[1] **a**";
    let mds = [
        "|```\n- |\n<cite id=\"a\">c</cite>",
        "| h [1] |\n- |\n| a [2] |\n<cite id=\"a\">c</cite> [2]\n",
        "| h [1] | g |\n|---|:-:|\n| a [2] | b |\n| c [1] | <cite id=\"b\">d</cite>",
        "|```\n|---|\n| a [1] |\nabc [2]",
        code,
    ];
    for md in mds {
        let single = (0..=md.len()).filter(|&cut| md.is_char_boundary(cut));
        let cuts = single
            .map(|cut| vec![cut])
            .chain((1..8).map(|size| chunked(md.len(), size)));
        for cuts in cuts {
            let html = stream_checking_steps(md, &cuts, &options);
            assert_eq!(
                html.map_err(|e| e.to_string()),
                Ok(render(md, &options).html),
                "{md:?} cut at {cuts:?}"
            );
        }
    }
}

/// A byte-order mark starting the message is not text, however the
/// message is cut, and ranges still count its bytes (issue 21).
#[test]
fn a_byte_order_mark_is_dropped_however_the_message_is_cut() {
    let md = "\u{FEFF}# Title [1]\n\ntext \u{FEFF}\n";
    let whole = render(md, &Options::default());
    assert!(whole.html.starts_with("<h1>Title "), "{}", whole.html);
    for size in [1, 2, 3, 4] {
        let (html, citations) = stream(md, &chunked(md.len(), size), &Options::default());
        assert_eq!(html, whole.html, "{size}-byte chunks");
        assert_eq!(citations, whole.citations.occurrences, "{size}-byte chunks");
    }
}

/// The ordinals written in `html`, in order.
fn ordinals_in(html: &str) -> Vec<u32> {
    html.split("data-citation-ordinal=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .collect()
}

/// After every push, the provisional index describes every citation shown,
/// the tail's included: its ordinals are those of the committed HTML and
/// the tail, and each occurrence's range is in the text pushed so far
/// (issue 20: a citation still in the tail has its occurrence).
#[test]
fn the_provisional_index_covers_what_the_tail_shows() {
    let mut tail_citations = 0;
    for (sample, size) in samples().iter().flat_map(|s| [(s, 1), (s, 4), (s, 16)]) {
        let mut stream = Stream::new(sample.options.clone());
        let mut assembled = StreamedHtml::default();
        let bytes = sample.markdown.as_bytes();
        for (i, chunk) in bytes.chunks(size).enumerate() {
            let patch = stream.push_bytes(chunk);
            assembled.apply(&patch);
            let tail = patch.tail.unwrap_or_default();
            let index = stream.provisional_index();
            let shown: Vec<u32> = ordinals_in(&[assembled.html(), &tail].concat());
            let listed: Vec<u32> = index.occurrences.iter().map(|o| o.ordinal).collect();
            let pushed = ((i + 1) * size).min(bytes.len());
            assert_eq!(shown, listed, "{} after {pushed} bytes", sample.name);
            assert!(
                index.occurrences.iter().all(|o| o.range.end <= pushed),
                "{}",
                sample.name
            );
            tail_citations += ordinals_in(&tail).len();
        }
        assembled.apply(&stream.finish());
        assert_eq!(
            stream.provisional_index(),
            render(&sample.markdown, &sample.options).citations
        );
    }
    assert!(
        tail_citations > 100,
        "the tails showed citations: {tail_citations}"
    );
}

/// A list inside `<details>` turning loose: its next item's marker and
/// first word are typed before the items above it are committed, so the
/// line's first bytes may still commit; typing is offered past them.
#[test]
fn typing_waits_for_a_line_to_be_decided() {
    let md = "<details><summary>More</summary>\n\n- The smaller latency doubled [2].\n\n\
              - The weekly deployment rose to **598**.\n- The legacy threshold dropped [1].\n\
              - The stale renewal rose.\n\n</details>\n\nAfter.\n";
    for size in 1..=8 {
        for offset in 0..size {
            let cuts: Vec<usize> = (offset..md.len()).step_by(size).collect();
            host_typing_gives_the_tail(md, &cuts)
                .unwrap_or_else(|e| panic!("{size}-byte chunks from {offset}: {e}"));
        }
    }
}

/// A heading's words go as typing once its first word has ended (its
/// `#`s alone show nothing, so it settles there), short as it is; and the
/// host's view stays the tail, however it is cut.
#[test]
fn a_headings_words_go_as_typing_after_its_first_word() {
    let mut stream = Stream::new(Options::default());
    for piece in ["Intro.\n\n## U", "sage", " of th"] {
        stream.push(piece);
        let _ = stream.tail_change();
    }
    assert_eq!(
        stream.typing(),
        Typing::Words {
            depth: 1,
            before: 6
        }
    );
    let md = "Intro.\n\n## Usage of things\n\n> ### Notes on *it* and `x` ##\n\n# A [1] b\n";
    for size in 1..=6 {
        let cuts: Vec<usize> = (size..md.len()).step_by(size).collect();
        host_typing_gives_the_tail(md, &cuts).unwrap_or_else(|e| panic!("{size}-byte chunks: {e}"));
    }
}

/// A link's label goes as typing: in a line, its words and code spans as
/// they show (the `[` hidden); opening a line, where it may yet be a
/// definition's and shows nothing, as held until a bracket, a `|` (a
/// quote's line may become a table's row) or a line break; and the host's
/// view stays the tail, however it is cut.
#[test]
fn a_links_label_goes_as_typing() {
    let typing_after = |pieces: &[&str]| {
        let mut stream = Stream::new(Options::default());
        for piece in pieces {
            stream.push(piece);
            let _ = stream.tail_change();
        }
        stream.typing()
    };
    let words = typing_after(&["See the ", "[cra"]);
    assert!(matches!(words, Typing::Words { .. }), "{words:?}");
    let code = typing_after(&["See ", "[`Utf8"]);
    assert!(matches!(code, Typing::CodeSpan { .. }), "{code:?}");
    assert_eq!(
        typing_after(&["Intro.\n\n- [wuf", "fs"]),
        Typing::Held(HeldKind::Label)
    );
    // (A prompt template's marker word may be typed: `[Source: 1`.)
    assert_eq!(typing_after(&["See ", "[Sour"]), Typing::Pushed);
    assert!(!Typing::Held(HeldKind::Label).admits(" a|b"));
    let md = "See the [crate docs](https://x.y/) and [`Utf8Path`].\n\n\
              - [wuffs](https://x.y/w)\n- [`icu`][icu] and [Source: 1]\n\n\
              > [Sou) w|x\n\n[icu]: https://x.y/icu\n";
    for size in 1..=6 {
        let cuts: Vec<usize> = (size..md.len()).step_by(size).collect();
        host_typing_gives_the_tail(md, &cuts).unwrap_or_else(|e| panic!("{size}-byte chunks: {e}"));
    }
}

/// A tag or a comment being typed, which the tail hides whole until its
/// `>`, goes as held typing, in an HTML block's lines as in a paragraph's
/// (a README's centered header); a `<` alone, which a `<` after it makes
/// text, does not; and the host's view stays the tail, however it is cut.
#[test]
fn a_tag_being_typed_goes_as_held_typing() {
    let mut stream = Stream::new(Options::default());
    for piece in ["<p align=\"center\">\n  <a href=\"https://x", ".y/"] {
        stream.push(piece);
        let _ = stream.tail_change();
    }
    assert_eq!(stream.typing(), Typing::Held(HeldKind::Tag));
    // (The preview holds a `(` ending the text back one a round before it
    // reaches the tag: a run of them would bare it. Fuzz finding 12.)
    assert!(!stream.typing().admits("(((("));
    let md =
        "<p align=\"center\">\n  <a href=\"https://x.y/\">x</a>\n  <!-- a comment -->\n</p>\n\n\
              x <<b> y <b>z</b>\n\n<b>\n> [a]: /q<<b>\n";
    for size in 1..=6 {
        let cuts: Vec<usize> = (size..md.len()).step_by(size).collect();
        host_typing_gives_the_tail(md, &cuts).unwrap_or_else(|e| panic!("{size}-byte chunks: {e}"));
    }
}

/// A heading's closing sequence shows at no push: typed after settled
/// words (`## Frequently asked questions ##`), it is no text (found in
/// winapi's README once headings' words went as typing).
#[test]
fn a_headings_closing_sequence_never_shows() {
    let md = "Intro.\n\n## Frequently asked questions ##\n\nText.\n";
    for size in 1..=6 {
        let mut stream = Stream::new(Options::default());
        for chunk in md.as_bytes().chunks(size) {
            stream.push_bytes(chunk);
            let tail = stream.tail();
            assert!(!tail.contains('#'), "{size}-byte chunks: {tail:?}");
        }
    }
}

/// A bullet list, then an ordered one being typed: the list's element
/// does not hold the open text's rendering, so the tail shows the list's
/// own; what the caches said of typing on the line they rendered (the
/// ordered item's, last byte `t` like the tail's) vouches for nothing.
/// (Found by the words property test, after 83,388 cases.)
#[test]
fn typing_is_offered_only_on_the_tail_shown() {
    let md = "-  ht\n\n1. Aaa0aa0[^1]: note\nhttp://http://> > ah[a]---\n,, [^1]A0AA  - ";
    host_typing_gives_the_tail(md, &[11, 26, 27]).unwrap_or_else(|e| panic!("{e}"));
}

/// Words beyond ASCII go as typing as ASCII words do (a line that starts
/// with a letter of any script is decided by it), in any cut that keeps
/// characters whole; what may take part in a citation (`【`), whitespace
/// beyond the space, and syntax still go to the stream.
#[test]
fn words_beyond_ascii_go_as_typing() {
    let md = "Le délai a baissé de 4 % après la mise à jour, selon «l'équipe».\n\n\
              中文的回答也一样，没有空格。Ελληνικά κείμενα, русский текст 🙂 **gras** [1].\n\n\
              Voir\u{3000}https://example.com et 【4†source】 fin.\n";
    let whole: Vec<usize> = md.char_indices().map(|(i, _)| i).collect();
    for size in 1..=6 {
        for offset in 0..size {
            let cuts: Vec<usize> = whole.iter().copied().skip(offset).step_by(size).collect();
            host_typing_gives_the_tail(md, &cuts)
                .unwrap_or_else(|e| panic!("{size}-character chunks from {offset}: {e}"));
        }
    }
    let prose = "Le délai a baissé après la mise à jour, selon l'équipe. ".repeat(40);
    let cuts: Vec<usize> = prose.char_indices().map(|(i, _)| i).step_by(4).collect();
    let pushed = host_typing_gives_the_tail(&prose, &cuts).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        pushed * 20 < cuts.len(),
        "{pushed} of {} chunks pushed",
        cuts.len()
    );
}

/// A fenced code block's lines go as typing, but for a line that may
/// close the block: a blank line, indentation, tabs, a fence's character
/// starting a line of code.
#[test]
fn code_lines_go_as_typing() {
    let md = "Intro\n\n```rust\nfn main() {\n    let x = 1;\n\n\tlet y = \"``\";\n\
              \x20``x\n  \n}\n~~~\n```\n\nAfter.\n";
    for size in 1..=8 {
        for offset in 0..size {
            let cuts: Vec<usize> = (offset..md.len()).step_by(size).collect();
            host_typing_gives_the_tail(md, &cuts)
                .unwrap_or_else(|e| panic!("{size}-byte chunks from {offset}: {e}"));
        }
    }
    let block = format!("```\n{}```\n", "    let value = compute(1);\n".repeat(200));
    let cuts: Vec<usize> = (0..block.len()).step_by(4).collect();
    let pushed = host_typing_gives_the_tail(&block, &cuts).unwrap_or_else(|e| panic!("{e}"));
    assert!(pushed < 10, "{pushed} of {} chunks pushed", cuts.len());
}

#[test]
fn indented_code_lines_go_as_typing_past_their_indentation() {
    let md = "Intro\n\n    fn main() {\n        let x = 1;\n      \n\n            y(x);\n  \
              \x20 \t z\n    }\n   \nAfter.\n";
    for size in 1..=8 {
        for offset in 0..size {
            let cuts: Vec<usize> = (offset..md.len()).step_by(size).collect();
            host_typing_gives_the_tail(md, &cuts)
                .unwrap_or_else(|e| panic!("{size}-byte chunks from {offset}: {e}"));
        }
    }
    // (A line's line break shows as typed, its indentation is held back,
    // and the line is pushed at its first character past it: about once
    // a line. 808 chunks of these 1,802 were pushed when every chunk of
    // indentation was, and every line break.)
    let block = format!(
        "Intro\n\n{}",
        "            let value = compute(1);\n".repeat(200)
    );
    let cuts: Vec<usize> = (0..block.len()).step_by(4).collect();
    let pushed = host_typing_gives_the_tail(&block, &cuts).unwrap_or_else(|e| panic!("{e}"));
    assert!(pushed <= 215, "{pushed} of {} chunks pushed", cuts.len());
}

#[test]
fn code_lines_in_a_list_item_go_as_typing() {
    let md = "Steps:\n\n1. Build:\n\n   ```sh\n   cargo build <x> && y\n     \t z\n  \n\n   ``x\n   ```\n\
              \n2. Run:\n   ~~~\n   a\n       more(&a);\n          \n     ~~ x\n   ~~~\n\n\
              - Nested:\n  - code:\n    ```\n    if (a) {\n      b();\n    }\n    \t```\n   ```\nAfter.\n";
    for size in 1..=8 {
        for offset in 0..size {
            let cuts: Vec<usize> = (offset..md.len()).step_by(size).collect();
            host_typing_gives_the_tail(md, &cuts)
                .unwrap_or_else(|e| panic!("{size}-byte chunks from {offset}: {e}"));
        }
    }
    // (Lines show as typed, less the item's indentation, their line breaks
    // too: 8 of these 958 chunks are pushed, at the block's start and end.
    // Every chunk was pushed before `Typing::CodeIn`, and about two a line
    // while its line breaks were.)
    let mut block = String::from("1. Run it:\n\n   ```rust\n");
    block.push_str(&"   let value = compute(1) + other(2);\n".repeat(100));
    block.push_str("   ```\n");
    let cuts: Vec<usize> = (0..block.len()).step_by(4).collect();
    let pushed = host_typing_gives_the_tail(&block, &cuts).unwrap_or_else(|e| panic!("{e}"));
    assert!(pushed <= 20, "{pushed} of {} chunks pushed", cuts.len());
}

/// `md` cut at `cuts`, pushed by a host that shows what [`Stream::typing`]
/// admits itself (inserting [`Typing::display`] of [`Typing::shown`] of it
/// at the typing point, escaped) and pushes it with `push_shown` before anything else: at every
/// chunk it shows what the stream would show with all of it pushed (the
/// code lines typing ended, then the tail), and its appends are the render.
/// Returns how many chunks went to the stream.
fn host_typing_gives_the_tail(md: &str, cuts: &[usize]) -> Result<usize, TestCaseError> {
    let mut cuts: Vec<usize> = cuts
        .iter()
        .map(|c| floor_char(md, c % (md.len() + 1)))
        .collect();
    cuts.sort_unstable();
    let options = Options::default();
    let mut host = Stream::new(options.clone());
    let mut assembled = StreamedHtml::default();
    let mut shown = String::new();
    let (mut typing, mut typed, mut handed) = (Typing::Pushed, String::new(), 0);
    let (mut from, mut pushed_chunks) = (0, 0);
    for &cut in cuts.iter().chain([&md.len()]) {
        let chunk = &md[from..cut.max(from)];
        from = cut.max(from);
        let next = typing.after(chunk);
        if next != Typing::Pushed {
            typing = next;
            typed.push_str(chunk);
            let now = typing.shown(&typed);
            prop_assert!(
                now.starts_with(&typed[..handed]),
                "{:?} after {:?}",
                now,
                &typed[..handed]
            );
            // (What shows grows: the text since what showed gives the rest.)
            prop_assert_eq!(typing.shown(&typed[handed..]), &now[handed..]);
            // (What shows of it, less an item's code block's indentation,
            // grows too.)
            let (was, is) = (
                typing.display(&now[..handed], false),
                typing.display(now, false),
            );
            prop_assert!(is.starts_with(&*was), "{:?} after {:?}", is, was);
            // (The text since what showed gives what shows after it.)
            let line_start = typed[..handed].ends_with('\n');
            prop_assert_eq!(&is[was.len()..], typing.display(&now[handed..], line_start));
            let (_, before) = typing.point().unwrap_or_default();
            let at = shown.len() - before;
            shown.insert_str(at, &escaped(&is[was.len()..]));
            handed = now.len();
            // (Pushed, it commits nothing but the code lines it ends, which
            // go where the host showed them: before the tail.)
            let mut pushed = host.clone();
            let patch = pushed.push_deferred(&typed);
            let code = matches!(typing, Typing::Verbatim { .. });
            prop_assert!(
                !patch.rewind && !patch.mark && patch.empty.is_none(),
                "typing {:?} after {} bytes redid something: {:?}",
                typed,
                from,
                patch
            );
            prop_assert!(
                code || patch.append.is_empty(),
                "typing committed something"
            );
            let seen = [patch.append.as_str(), &pushed.tail()].concat();
            prop_assert_eq!(&shown, &seen, "after {} bytes, {:?}", from, typing);
            continue;
        }
        pushed_chunks += 1;
        if !typed.is_empty() {
            let patch = host.push_shown(&typed, handed);
            if patch.ends_tail() {
                shown.clear();
            }
            assembled.apply(&patch);
        }
        let patch = host.push_deferred(chunk);
        if patch.ends_tail() {
            shown.clear();
        }
        assembled.apply(&patch);
        (typed, handed) = (String::new(), 0);
        host.tail_change().apply_to(&mut shown);
        typing = host.typing();
        prop_assert_eq!(&shown, &host.tail(), "after {} bytes", from);
    }
    assembled.apply(&host.push_shown(&typed, handed));
    assembled.apply(&host.finish());
    prop_assert_eq!(assembled.html(), render(md, &options).html);
    Ok(pushed_chunks)
}

/// `text` escaped as the tail escapes text.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The char boundary at or before `at`.
fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `md` streamed cut at `cuts`, and in 1-byte chunks, gives its one-shot
/// HTML and citations.
fn streams_to_its_one_shot_render(
    md: &str,
    cuts: &[usize],
    options: &Options,
) -> Result<(), TestCaseError> {
    let whole = render(md, options);
    let (html, citations) = stream(md, cuts, options);
    prop_assert_eq!(&html, &whole.html);
    prop_assert_eq!(citations, whole.citations.occurrences);
    let (html, _) = stream(md, &chunked(md.len(), 1), options);
    prop_assert_eq!(&html, &whole.html, "1-byte chunks");
    Ok(())
}

/// For each push: whether what the reader sees (appended HTML + tail) is
/// a prefix of what they will finally see, and if not, the step's view.
fn prefix_steps(message: &str, size: usize, options: &Options) -> (usize, usize, Vec<String>) {
    let last = visible(&render(message, options).html);
    let mut stream = Stream::new(options.clone());
    let mut appended = String::new();
    let (mut good, mut total, mut bad) = (0, 0, Vec::new());
    for chunk in message.as_bytes().chunks(size) {
        let patch = stream.push_bytes(chunk);
        appended.push_str(&visible(&patch.append));
        appended.push(' ');
        let tail = visible(&patch.tail.unwrap_or_default());
        let seen = format!("{appended} {tail}")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        total += 1;
        if last.starts_with(&seen) {
            good += 1;
        } else {
            bad.push(seen);
        }
    }
    (good, total, bad)
}

/// The prefix rate: the share of pushes after which the reader sees a
/// prefix of the final text (nothing shown that later changes or goes).
/// Prints the report quoted in docs/streaming.md ("The guarantees"); run with
/// `--nocapture`.
#[test]
fn prefix_rate() {
    let mut report = String::from("sample                           1-byte   4-byte  16-byte\n");
    let mut all = [(0usize, 0usize); 3];
    for sample in samples() {
        report.push_str(&format!("{:32}", sample.name));
        for (slot, size) in [1, 4, 16].into_iter().enumerate() {
            let (good, total, bad) = prefix_steps(&sample.markdown, size, &sample.options);
            all[slot].0 += good;
            all[slot].1 += total;
            report.push_str(&format!(" {:7.2}%", 100.0 * good as f64 / total as f64));
            if std::env::var_os("CITEMARK_SHOW_FLICKER").is_some() {
                let last = visible(&render(&sample.markdown, &sample.options).html);
                for view in bad.iter().take(3) {
                    let same = view
                        .chars()
                        .zip(last.chars())
                        .take_while(|(a, b)| a == b)
                        .count();
                    let from = same.saturating_sub(30);
                    let seen: String = view.chars().skip(from).take(50).collect();
                    let wanted: String = last.chars().skip(from).take(50).collect();
                    eprintln!(
                        "{} @{size}: seen …{seen}\n{:width$}   final …{wanted}",
                        sample.name,
                        "",
                        width = sample.name.len()
                    );
                }
            }
        }
        report.push('\n');
    }
    report.push_str(&format!("{:32}", "all samples"));
    for (good, total) in all {
        report.push_str(&format!(" {:7.2}%", 100.0 * good as f64 / total as f64));
    }
    println!("{report}");
    // (Footnotes and references defined at the end included: they show
    // as what they will be.)
    for (good, total) in all {
        assert_eq!(
            good, total,
            "something shown later changed (CITEMARK_SHOW_FLICKER=1 shows it):\n{report}"
        );
    }
}

/// Random markdown around tables: headers, delimiter rows, rows with
/// citations, references a later definition defines, footnotes, and what
/// ends a table.
fn table_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("| a | b |\n|---|:-:|\n".to_owned()),
        Just("| x [1] | **y** |\n".to_owned()),
        Just("| [a] | [^1] |\n".to_owned()),
        Just("|".to_owned()),
        Just(" | ".to_owned()),
        Just("\n".to_owned()),
        Just("\n\n".to_owned()),
        Just("[a]: /a\n".to_owned()),
        Just("[^1]: note\n".to_owned()),
        Just("<cite id=\"a\">c</cite>".to_owned()),
        Just("# ".to_owned()),
        Just("> ".to_owned()),
        Just("- ".to_owned()),
        Just("```\n".to_owned()),
        Just("\\|".to_owned()),
        Just("`".to_owned()),
        "[a-z *]{1,5}",
    ];
    prop::collection::vec(part, 0..40).prop_map(|parts| parts.concat())
}

/// Random markdown around link reference definitions: references before
/// and after them, definitions one a line or after text, with titles on
/// their line or the next, and what a definition's line may hold that
/// other rules hold back (brackets, tags, entities, delimiters, pipes).
fn definition_line_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        4 => Just("\n[a]: https://x/a".to_owned()),
        2 => Just("\n[B c]: /b".to_owned()),
        2 => Just("\n[1]: https://x/1".to_owned()),
        1 => Just("\n[^1]: ".to_owned()),
        1 => Just("\n> [a]: /q".to_owned()),
        1 => Just("\n  [a]: ".to_owned()),
        2 => Just(" \"t\"".to_owned()),
        1 => Just("\n'u'".to_owned()),
        1 => Just(" (".to_owned()),
        3 => Just("[a]".to_owned()),
        2 => Just("[b c][]".to_owned()),
        1 => Just("[x][a]".to_owned()),
        2 => Just("[1]".to_owned()),
        1 => Just("[^1]".to_owned()),
        3 => Just("\n".to_owned()),
        3 => Just("\n\n".to_owned()),
        1 => Just("- ".to_owned()),
        1 => Just("|".to_owned()),
        1 => Just("*".to_owned()),
        1 => Just("`".to_owned()),
        1 => Just("<".to_owned()),
        1 => Just("<b>".to_owned()),
        1 => Just("`]`".to_owned()),
        1 => Just("&amp".to_owned()),
        1 => Just("[".to_owned()),
        1 => Just("]".to_owned()),
        1 => Just("\\".to_owned()),
        1 => Just("\r".to_owned()),
        6 => "[a-z/:.]{1,6}",
        4 => Just(" ".to_owned()),
    ];
    prop::collection::vec(part, 0..40).prop_map(|parts| parts.concat())
}

/// Random markdown around link reference definitions, whose title may
/// open on the line after the destination and close lines later, at the
/// margin and inside quotes and list items.
fn definition_markdown() -> impl Strategy<Value = String> {
    // (Lines, each possibly in a quote or an item.)
    let unit = prop_oneof![
        Just(vec!["[a] and [b]"]),
        // (A full reference read as its link makes the bracketed words
        // after it links awaited too, where the `[` starts a word.)
        Just(vec!["See [x][b], #[a] or [`b`][] and *[B]*"]),
        Just(vec![""]),
        Just(vec!["text"]),
        Just(vec!["[a]: /u"]),
        Just(vec!["[a]: /u", "'", "t'"]),
        Just(vec!["[a]: /u", "'t", "", "u'"]),
        Just(vec!["[b]: <v>", "\"t", "u\" x"]),
        Just(vec!["[b]: <v>", "(", "t)"]),
        Just(vec!["[b]: <v> 'w", "x'"]),
    ];
    let prefix = prop_oneof![Just(""), Just(""), Just("> "), Just("- "), Just("  ")];
    prop::collection::vec((prefix, unit), 0..8).prop_map(|units| {
        let mut text = String::new();
        for (prefix, lines) in units {
            for line in lines {
                text.push_str(prefix);
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    })
}

/// Random markdown inside raw elements an HTML block leaves open
/// (`<details>`, `<div>`): their ends at the margin, in text, in code,
/// nested, never written; and the blocks that go inside them.
fn raw_element_markdown() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("<details>"),
        Just("<details><summary>S [1]</summary>"),
        Just("<details open class=\"x\" onclick=\"y()\">"),
        Just("<summary>S</summary>"),
        Just("<div class=\"note\">"),
        Just("  <h1><code>w</code></h1>"),
        Just("  <p>\n    <strong>F.</strong>\n  </p>"),
        Just("<section>"),
        Just("</details>"),
        Just("</DETAILS>"),
        Just("</div>"),
        Just("text </details> more"),
        Just(""),
        Just(""),
        Just(""),
        Just("text [1] <b>bold</b> <cite id=\"a\">x</cite>"),
        Just("<b>open"),
        Just("<div>"),
        Just("```"),
        Just("code </details>"),
        Just("| a | b |\n|---|---|\n| 1 | 2 |"),
        Just("- item [2]"),
        Just("> quote"),
        Just("[a]"),
        Just("[a]: /u"),
        Just("note[^1]"),
        Just("[^1]: n"),
        Just("<!-- c"),
        Just("-->"),
        Just("<script>x</script>"),
    ];
    prop::collection::vec(line, 0..24).prop_map(|lines| lines.join("\n"))
}

/// Random markdown around lists and quotes: markers of each kind,
/// indented continuations, nested items, blank lines that make a list
/// loose or end a quote, lazy lines, alerts, and definitions in them.
fn container_markdown() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("- ".to_owned()),
        Just("* ".to_owned()),
        Just("1. ".to_owned()),
        Just("2) ".to_owned()),
        Just("  - ".to_owned()),
        Just("   ".to_owned()),
        Just("> ".to_owned()),
        Just(">".to_owned()),
        Just("> > ".to_owned()),
        Just("> [!NOTE]\n".to_owned()),
        Just("\n".to_owned()),
        Just("\n\n".to_owned()),
        Just("    ".to_owned()),
        Just("[1]".to_owned()),
        Just("[a]".to_owned()),
        Just("[a]: /a\n".to_owned()),
        Just("[^1]".to_owned()),
        Just("**".to_owned()),
        Just("```\n".to_owned()),
        Just("| a | b |\n|---|---|\n".to_owned()),
        Just("---\n".to_owned()),
        Just("# ".to_owned()),
        Just("<details>\n".to_owned()),
        "[a-z ]{1,5}",
    ];
    prop::collection::vec(part, 0..40).prop_map(|parts| parts.concat())
}

/// Streams `md` cut at `cuts`, checking each patch (`PatchChecker`: its
/// steps against its `append` and the stream's open end tags, its balanced
/// pieces and tail balanced) and that the tail's changes give the tail;
/// returns the HTML assembled from the patches.
fn stream_checking_steps(
    md: &str,
    cuts: &[usize],
    options: &Options,
) -> Result<String, TestCaseError> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (md.len() + 1)).collect();
    cuts.sort_unstable();
    let mut stream = Stream::new(options.clone());
    let mut assembled = StreamedHtml::default();
    // (Safety has its own tests; parsing every tail would slow these.)
    let mut checker = PatchChecker::new(Expect {
        safe: false,
        ..Expect::of(options)
    });
    let mut changed_tail = String::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([&md.len()]) {
        let patch = stream.push_bytes(&md.as_bytes()[from..cut.max(from)]);
        from = cut.max(from);
        checker
            .check(&patch, &stream)
            .map_err(TestCaseError::fail)?;
        assembled.apply(&patch);
        // The tail's changes, applied, give the tail.
        let tail = patch.tail.as_deref().unwrap_or_default();
        if patch.ends_tail() {
            changed_tail.clear();
        }
        stream.tail_change().apply_to(&mut changed_tail);
        prop_assert_eq!(&changed_tail, tail, "tail changes after {} bytes", from);
        // The provisional index lists what is shown, the tail's included.
        let shown = ordinals_in(&[assembled.html(), tail].concat());
        let listed: Vec<u32> = stream
            .provisional_index()
            .occurrences
            .iter()
            .map(|o| o.ordinal)
            .collect();
        prop_assert_eq!(shown, listed, "provisional index after {} bytes", from);
    }
    let last = stream.finish();
    checker.check(&last, &stream).map_err(TestCaseError::fail)?;
    checker.finished(&stream).map_err(TestCaseError::fail)?;
    assembled.apply(&last);
    Ok(assembled.html().to_owned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(500)))]

    /// Lists and quotes are committed child by child inside their
    /// element: the patches still give the one-shot render, and the steps
    /// say where the element opens and closes.
    #[test]
    fn lists_and_quotes_stream_to_their_one_shot_render(
        md in container_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_with_steps_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    /// Definitions, whose title may come on later lines.
    #[test]
    fn definitions_stream_to_their_one_shot_render(
        md in definition_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_with_steps_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    /// Blocks inside a raw element left open, batch by batch.
    #[test]
    fn raw_elements_stream_to_their_one_shot_render(
        md in raw_element_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_with_steps_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    /// Tables, row by row.
    #[test]
    fn tables_stream_to_their_one_shot_render(
        md in table_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_with_steps_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    /// A host that shows typing itself as the stream says it shows (as
    /// the npm package's glue does) and pushes it later with `push_shown`
    /// shows the tail at every chunk, and its appends are the render: on
    /// code lines.
    #[test]
    fn code_typed_by_the_host_gives_the_tail(
        md in common::code_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        host_typing_gives_the_tail(&md, &cuts)?;
    }

    /// … and words on a paragraph's line, in and out of lists and quotes.
    #[test]
    fn words_typed_by_the_host_give_the_tail(
        md in common::prose_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..60),
    ) {
        host_typing_gives_the_tail(&md, &cuts)?;
    }

    /// … and tables' rows, which show once they end.
    #[test]
    fn rows_typed_by_the_host_give_the_tail(
        md in table_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..60),
    ) {
        host_typing_gives_the_tail(&md, &cuts)?;
    }

    /// … and link reference definitions, which show nothing until their
    /// line ends.
    #[test]
    fn definitions_typed_by_the_host_give_the_tail(
        md in definition_line_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..60),
    ) {
        host_typing_gives_the_tail(&md, &cuts)?;
    }

    /// Code blocks, line by line.
    #[test]
    fn code_blocks_stream_to_their_one_shot_render(
        md in common::code_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_with_steps_to_its_one_shot_render(&md, &cuts, &options)?;
    }
}

/// `md` streamed cut at `cuts`, and in 1-byte chunks, gives its one-shot
/// HTML and citations, with every patch's steps well formed.
fn streams_with_steps_to_its_one_shot_render(
    md: &str,
    cuts: &[usize],
    options: &Options,
) -> Result<(), TestCaseError> {
    let whole = render(md, options);
    let (_, citations) = stream(md, cuts, options);
    prop_assert_eq!(citations, whole.citations.occurrences);
    prop_assert_eq!(
        stream_checking_steps(md, cuts, options)?,
        whole.html.clone()
    );
    let one_byte = stream_checking_steps(md, &chunked(md.len(), 1), options)?;
    prop_assert_eq!(one_byte, whole.html, "1-byte chunks");
    Ok(())
}

/// The bytes a host is handed while `message` streams in `size`-byte
/// chunks with the tail after every push, per byte of its final HTML.
fn handed_per_final_byte(message: &str, size: usize) -> f64 {
    let options = Options::default();
    let mut stream = Stream::new(options.clone());
    let mut handed = 0;
    for chunk in message.as_bytes().chunks(size) {
        let patch = stream.push_bytes(chunk);
        handed += patch.append.len() + patch.tail.map_or(0, |t| t.len());
    }
    handed += stream.finish().append.len();
    handed as f64 / render(message, &options).html.len() as f64
}

/// A list's items are committed as the next item's marker and first
/// letter are typed, so the open text may end as that one line: the list
/// goes on with its marker (`1.`), not a stand-in bullet. (Found by the
/// property tests at 5,000 cases: the end closed an `<ol>` with `</ul>`.)
#[test]
fn a_list_whose_last_item_is_one_line_being_typed_ends_as_rendered() {
    let options = Options::default();
    for message in [
        "1. ```\n1. 1. ",
        "1. a\n2. b",
        "3) a\n4) b [1]",
        "- a\n  - b\n- c",
        "* a\n\n* b",
    ] {
        let whole = render(message, &options).html;
        for chunk in 1..=4 {
            let cuts: Vec<usize> = (chunk..message.len()).step_by(chunk).collect();
            let (html, _) = common::streamed_at(message, &cuts, &options);
            assert_eq!(html, whole, "{chunk}-byte chunks: {message:?}");
        }
    }
}

/// Lists that turn loose after a reference nothing defines yet: the mark
/// stays before the reference, so each list is emptied and appended again
/// inside its open element (`Patch::empty`), not rewound to the mark with
/// everything after it. One rewind, at the definition; what the host is
/// handed per byte of final HTML stays flat as the lists grow in number.
#[test]
fn lists_turning_loose_after_an_awaiting_reference_are_emptied_not_rewound() {
    let message = |lists: usize| {
        let mut text = String::from("See the [guide][g] first.\n\n");
        for n in 0..lists {
            text.push_str(&format!(
                "Paragraph {n} [1].\n\n- item {n} one [2]\n- item {n} two\n\n- item {n} three\n\n"
            ));
        }
        text + "[g]: https://example.org/guide\n"
    };
    let mut per_byte = Vec::new();
    for lists in [40, 160] {
        let message = message(lists);
        let options = Options::default();
        let whole = render(&message, &options);
        let mut stream = Stream::new(options);
        let mut html = StreamedHtml::default();
        let (mut handed, mut rewinds, mut empties) = (0, 0, 0);
        for chunk in message.as_bytes().chunks(4) {
            let patch = stream.push_bytes(chunk);
            handed += patch.append.len() + patch.tail.as_deref().map_or(0, str::len);
            rewinds += usize::from(patch.rewind);
            empties += usize::from(patch.empty.is_some());
            html.apply(&patch);
        }
        let last = stream.finish();
        rewinds += usize::from(last.rewind);
        handed += last.append.len();
        html.apply(&last);
        assert_eq!(html.html(), whole.html, "{lists} lists");
        assert_eq!(
            html.citations(),
            whole.citations.occurrences,
            "{lists} lists"
        );
        assert_eq!(rewinds, 1, "{lists} lists: one rewind, at the definition");
        assert!(empties >= lists, "{lists} lists, {empties} emptied");
        per_byte.push(handed as f64 / whole.html.len() as f64);
    }
    assert!(
        per_byte[1] < per_byte[0] * 1.25,
        "handed per byte of HTML: {per_byte:?}"
    );
}

/// Streams `message` in `size`-byte chunks; returns the applied HTML after
/// each patch (finish's last), and how many patches rewound.
fn applied_views(message: &str, size: usize) -> (Vec<String>, usize) {
    let mut stream = Stream::new(Options::default());
    let mut html = StreamedHtml::default();
    let (mut views, mut rewinds) = (Vec::new(), 0);
    for chunk in message.as_bytes().chunks(size) {
        let patch = stream.push_bytes(chunk);
        rewinds += usize::from(patch.rewind);
        html.apply(&patch);
        views.push(html.html().to_owned());
    }
    let last = stream.finish();
    rewinds += usize::from(last.rewind);
    html.apply(&last);
    views.push(html.html().to_owned());
    (views, rewinds)
}

/// `message` streamed in 1-, 4- and 16-byte chunks, each run's last
/// applied HTML checked against its render: the chunk size, the applied
/// HTML after each patch, and how many patches rewound.
fn views_by_chunk_size(message: &str) -> impl Iterator<Item = (usize, Vec<String>, usize)> + '_ {
    let whole = render(message, &Options::default()).html;
    [1, 4, 16].into_iter().map(move |size| {
        let (views, rewinds) = applied_views(message, size);
        assert_eq!(
            views.last(),
            Some(&whole),
            "{size}-byte chunks: {message:?}"
        );
        (size, views, rewinds)
    })
}

#[test]
fn footnotes_show_as_footnotes_before_their_definitions_come() {
    let message = "Caching helps[^fresh].\n\nStale data hurts[^stale].\n\nMore text.\n\n\
                   [^fresh]: Freshness.\n\n[^stale]: Staleness.\n";
    for (size, views, rewinds) in views_by_chunk_size(message) {
        // (Read provisionally, and every label turned out defined: the
        // end takes them as they were.)
        assert_eq!(
            rewinds, 0,
            "{size}-byte chunks: committed footnotes were final"
        );
        // The first paragraph was committed, as the footnote it is, long
        // before its definition came.
        let before_definitions = views
            .iter()
            .find(|view| view.contains("Stale data"))
            .expect("the second paragraph commits");
        assert!(
            before_definitions.contains(
                r##"<sup class="footnote-reference"><a href="#user-content-fresh">1</a></sup>"##
            ),
            "{size}-byte chunks: {before_definitions}"
        );
    }
}

#[test]
fn footnotes_are_rendered_again_at_the_end_when_their_reading_may_not_hold() {
    for (message, why) in [
        (
            "Claimed[^A] here.\n\n[^a]: Defined in another case.\n",
            "a label defined in another case",
        ),
        (
            "Claimed[^a b] here.\n\n[^a b]: Spaced.\n",
            "a label with no stand-in",
        ),
        (
            "Claimed[^1] here.\n\n```\n[^1]: code, not a definition\n```\n",
            "a definition-like line in code",
        ),
        (
            "Claimed[^1] and <cite id=\"a\">cited[^2]</cite>.\n\n[^1]: Defined.\n",
            "an undefined label in a citation's label, which no writer writes",
        ),
        (
            "Claimed[^1] here.\n\n[^1]: Defined.\n\nThen [a][b] there.",
            "a reference awaiting its definition in the last text",
        ),
    ] {
        for (size, _, rewinds) in views_by_chunk_size(message) {
            assert_eq!(rewinds, 1, "{why}, {size}-byte chunks");
        }
    }
}

#[test]
fn footnotes_read_as_final_stream_as_rendered() {
    // (Found by the property tests on the way: a part noted a definition
    // past its commit's cut, and one a citation's label held.)
    let options = Options::default();
    for md in [
        "[^1]: note\n[^1]: note\na0",
        "<details>\n\n[^1]: n\n[^1]: n\n<details>",
        "<cite id=\"a\">[^1]: note\n<cite id=\"a\">**b** [1]</cite><details>\n~~~\n",
    ] {
        for size in [1, 2, 3, 5, md.len()] {
            streams_to_its_one_shot_render(md, &chunked(md.len(), size), &options).unwrap();
        }
    }
}

#[test]
fn a_footnote_never_defined_is_text_again_at_the_end() {
    let message = "Claimed[^gone] here.\n\nThen[^kept] more.\n\n[^kept]: Kept.\n";
    let whole = render(message, &Options::default()).html;
    assert!(whole.contains("[^gone]"), "{whole}");
    for (size, _, rewinds) in views_by_chunk_size(message) {
        assert_eq!(rewinds, 1, "{size}-byte chunks: one rewind, at the end");
    }
}

#[test]
fn a_full_reference_shows_its_text_until_its_definition_comes() {
    let message = "See the [Q2 deck][deck] now.\n\nMore text.\n\nEven more.\n\n\
                   [deck]: https://example.org/deck\n\nLast.\n";
    for (size, views, rewinds) in views_by_chunk_size(message) {
        assert_eq!(
            rewinds, 1,
            "{size}-byte chunks: one rewind, at the definition"
        );
        let early = views
            .iter()
            .find(|view| view.contains("More text"))
            .expect("the second paragraph commits");
        assert!(
            early.contains("<p>See the Q2 deck now.</p>"),
            "{size}-byte chunks: {early}"
        );
    }
    // Never defined: brackets again, at the end.
    let message = "See the [Q2 deck][deck] now.\n\nMore text.\n\nLast.\n";
    let whole = render(message, &Options::default()).html;
    assert!(whole.contains("[Q2 deck][deck]"), "{whole}");
    let (views, rewinds) = applied_views(message, 4);
    assert_eq!(views.last(), Some(&whole));
    assert_eq!(rewinds, 1);
}

#[test]
fn a_badge_whose_definitions_come_at_the_end_shows_no_syntax() {
    // (As a README's first line: image references inside links'. And
    // `#![no_std]`, which nothing defines, is text all along.)
    let message = "# tool [![Crate][crate-image]][crate-link] [![Docs]][docs-link] ![CI]\n\n\
                   For #![no_std] crates.\n\nMore.\n\nEven more.\n\n[crate-image]: https://img.example/c.svg\n\
                   [crate-link]: https://crates.example/tool\n[Docs]: https://img.example/d.svg\n\
                   [docs-link]: https://docs.example/tool\n[CI]: https://img.example/ci.svg\n";
    for (size, views, _) in views_by_chunk_size(message) {
        let early = views
            .iter()
            .find(|view| view.contains("<p>More.</p>"))
            .expect("the paragraphs commit");
        assert!(
            early.starts_with("<h1>tool   </h1>\n<p>For #![no_std] crates.</p>"),
            "{size}-byte chunks: {early}"
        );
    }
}

/// A long code block or table is handed over once, line by line, not
/// re-sent whole at every push: what the host gets per byte of final HTML
/// stays flat from 16 KiB to 256 KiB (a line's tail is re-sent as it is
/// typed).
#[test]
fn long_code_blocks_and_tables_are_handed_over_once() {
    let code =
        "    let total = items.iter().map(|x| x.price * x.count).sum::<u64>(); // <sum> & more\n";
    let row = "| EMEA [1] | **4.2%** | `q3` | [citation needed] |\n";
    let header = "| region | growth | key | note |\n|:--|--:|---|---|\n";
    for (open, close, line) in [
        ("```rust\n", "```\n", code),
        ("~~~~\n", "~~~~\n", code),
        ("    x\n", "", code),
        (header, "", row),
    ] {
        let body = |size: usize| {
            let code: String = line.repeat(size / line.len() + 1);
            format!("Code:\n\n{open}{code}{close}\nAfter.\n")
        };
        let small = handed_per_final_byte(&body(16 * 1024), 4);
        let large = handed_per_final_byte(&body(256 * 1024), 4);
        assert!(
            small < 25.0 && large < 25.0,
            "{open:?}: {small:.1} / {large:.1} bytes handed per final byte"
        );
        assert!(
            large < small * 1.25,
            "{open:?}: {small:.1} at 16 KiB, {large:.1} at 256 KiB"
        );
    }
}

#[test]
fn a_definition_like_line_after_a_link_definition_streams_as_rendered() {
    // (With a stand-in for `[^1]` parsed first, pulldown-cmark read the
    // indented line as a footnote definition; the whole message does not.)
    let md = "[a]: /a\n    [^1]: note\n[1]\n```\n<!-- c -->Ht\\[\u{2028}---<!-- c -->> ";
    let options = Options::default();
    for size in [1, 2, 3, 5, md.len()] {
        streams_to_its_one_shot_render(md, &chunked(md.len(), size), &options).unwrap();
    }
}

/// The preview closes emphasis left open after the last line's text: not
/// on a line of its own after its line ending, where `*` starts a list
/// item and `` ``` `` a fence (fuzz finding 8: inside an open list, a
/// tail that closed the list and opened another), nor after spaces; and a
/// `*` that cannot open (after a letter, before punctuation) gets no
/// closer, which showed a star the final text never has.
#[test]
fn the_preview_closes_emphasis_where_it_can_close() {
    for md in [
        "- a*[a]: /a\n  | a | b |\n|---|:-:|\n",
        "- a *b\n  c\n",
        "> a *b\n> c\n",
        "- ```[1] **a**\r\n",
    ] {
        assert_streams_byte_by_byte(md);
    }
    for (md, tail) in [
        ("a *b  \n", "<p>a <em>b</em></p>\n"),
        ("a *b  \nc", "<p>a <em>b<br />\nc</em></p>\n"),
        ("Compute 2*(x+1) now", "<p>Compute 2*(x+1) now</p>\n"),
        ("a*[a] b", "<p>a*[a] b</p>\n"),
    ] {
        let mut stream = Stream::new(Options::default());
        stream.push(md);
        assert_eq!(stream.tail(), tail, "{md:?}");
    }
}

/// A list's open text whose first line is an item the stream does not
/// read as one (`*` then a tab) is rendered after a stand-in item marked
/// as the list's first, not as `-`: a `-` item before a `*` one starts
/// another list, and the tail closed the list it goes inside (the fuzz
/// input of finding 8, minimized).
#[test]
fn a_lists_tail_renders_after_an_item_of_the_same_list() {
    for md in ["*\n*\t\n>", "+\n+\tb\n", "1)\n2)\t\n>"] {
        assert_streams_cut_at(md, &[]);
        assert_streams_byte_by_byte(md);
    }
}

/// A definition in a `<details>` after a table row that uses its label,
/// then a code block, pushed byte by byte: the definition rewound to the
/// mark, which put the text back since the `<details>` opened after it;
/// committed again, the table went alone before the definition, and the end
/// rendered nothing again, the definition being committed rather than in
/// the open text. The row stayed `[a]` where the render links it. (Found
/// by `lists_and_quotes_stream_to_their_one_shot_render` at 40,000 cases.)
#[test]
fn a_definition_committed_after_a_rewind_is_still_late_at_the_end() {
    for md in [
        "a||\n-|-\n[a]\n<details>\n\n[a]:a\n```\n\n\n",
        "* ---\n| a | b |\n|---|---|\n[a]: /a\n<details>\n\n[a]: /a\n```\n| a | b |\n|---|---|\n",
    ] {
        assert_streams_byte_by_byte(md);
    }
}

/// A line of whitespace after a paragraph and a blank line (tabs, form
/// feeds, vertical tabs) starts no block for the parser, which drops it,
/// nor for the one-line renderer that commits the paragraph without it
/// (debug builds compare the two).
#[test]
fn a_line_of_whitespace_after_a_paragraph_starts_no_block() {
    for md in ["T\n\n\t", "T\r\r\x0c", "T\n\n \x0b\n", "T\n\n\x0c\nb"] {
        assert_streams_byte_by_byte(md);
    }
}

/// Raw HTML inside a raw element that opens an element whose content is
/// raw text (`<xmp`, `<textarea`) takes in the raw HTML after it as text:
/// the batch waits for what follows, as the whole message renders it.
#[test]
fn a_raw_text_element_inside_a_raw_element_takes_in_the_raw_html_after_it() {
    for md in [
        "<details>\n\n<p><xmp </p>\n\n<!--",
        "<details>\n\n<p><xmp </p>\n\n<b>x</b>\n\nmore\n",
        "<details>\n\n<p><TEXTAREA </p>\n\n<!--",
    ] {
        assert_streams_byte_by_byte(md);
    }
}

/// A README's centred header, `<div align="center">` with its blocks raw
/// HTML indented under it, commits them inside the open element as they
/// come. (An indented raw block, its indentation a text event of its own,
/// rendered a line break more inside the element than alone, so every
/// batch after it failed the check and waited in the tail for `</div>`.)
#[test]
fn a_readme_header_commits_its_blocks_inside_the_open_div() {
    let md = "<div align=\"center\">\n\n  <h1><code>w</code></h1>\n\n  <p>\n    <strong>F.</strong>\n  </p>\n\nText one.\n\nText two.\n\n</div>\n\nAfter.\n";
    assert_streams_byte_by_byte(md);
    let before_end = &md[..md.find("</div>").expect("the end tag")];
    let mut stream = Stream::new(Options::default());
    let appended: String = before_end
        .as_bytes()
        .chunks(8)
        .map(|chunk| {
            stream
                .push(std::str::from_utf8(chunk).expect("ASCII"))
                .append
        })
        .collect();
    assert_eq!(
        appended,
        "<div>\n  <h1><code>w</code></h1>\n  <p>\n    <strong>F.</strong>\n  </p>\n<p>Text one.</p>\n"
    );
}

/// Once a message writes its links by reference (it has defined one, or
/// read a full reference as the link it will be), its bracketed words read
/// as links awaiting their definitions too, as READMEs write them
/// (`[ChaCha]`, defined at the end), where the `[` starts a word (not
/// `#[cfg]`); the end gives them their brackets back if no definition came.
/// Before that, they stay as typed.
#[test]
fn bracketed_words_read_as_links_once_the_message_links_by_reference() {
    let badges = "# ChaCha20 [![Crate][crate-image]][crate-link]\n\nThe [ChaCha] family";
    let defined = "[a]: /a\n\nSee [b] and [c][] here, not #[d] or e[i]";
    for md in [
        format!("{badges}.\n\n[ChaCha]: /chacha\n[crate-image]: /i.svg\n[crate-link]: /c\n"),
        format!("{badges}.\n\n[crate-image]: /i.svg\n[crate-link]: /c\n"),
        format!("{badges}.\n"),
        format!("{defined}.\n\n[B]: /b\n[c]: /c\n"),
        format!("{defined}.\n\n[b]: /b\n"),
        format!("{defined}.\n"),
    ] {
        assert_streams_byte_by_byte(&md);
    }
    let mut stream = Stream::new(Options::default());
    let patch = stream.push(&format!("{badges}.\n\nMore"));
    assert!(
        patch.append.ends_with("<p>The ChaCha family.</p>\n"),
        "{}",
        patch.append
    );
    // (A definition counts once committed: not in the part it is in.)
    let mut stream = Stream::new(Options::default());
    let (definition, paragraph) = defined.split_at(12);
    let first = stream.push(definition).append;
    let patch = stream.push(&format!("{paragraph}.\n\nMore"));
    assert_eq!(
        first + &patch.append,
        "<p>See b and c here, not #[d] or e[i].</p>\n"
    );
    let mut stream = Stream::new(Options::default());
    let patch = stream.push("See [b] and [c][] here.\n\nMore");
    assert_eq!(patch.append, "<p>See [b] and [c][] here.</p>\n");
}

/// A shortcut reference to code (`` [`syn::File`] ``, documentation's way
/// to link an item) shows its code while its definition is still to come,
/// as the link will show it, and gets its brackets back at the end if none
/// came; bracketed words stay as typed (`[citation needed]` is prose).
#[test]
fn a_shortcut_reference_to_code_shows_its_code_until_defined() {
    let first = "The tree is rooted at [`syn::File`] which is big.\n\nMore";
    for md in [
        format!("{first}.\n\n[`syn::File`]: https://docs.rs/syn\n"),
        format!("{first}.\n"),
        format!("{first} [``a`b``][] and [`c`].\n\n[`C`]: /c\n"),
    ] {
        assert_streams_byte_by_byte(&md);
    }
    let mut stream = Stream::new(Options::default());
    let patch = stream.push(first);
    assert_eq!(
        patch.append,
        "<p>The tree is rooted at <code>syn::File</code> which is big.</p>\n"
    );
    let mut stream = Stream::new(Options::default());
    let patch = stream.push("See [citation needed] and [`a` b] and [`a` `b`].\n\nMore");
    assert_eq!(
        patch.append,
        "<p>See [citation needed] and [<code>a</code> b] and [<code>a</code> <code>b</code>].</p>\n"
    );
    // One code span may hold backticks in runs of another length.
    let mut stream = Stream::new(Options::default());
    let patch = stream.push("See [``a`b``] and [``c```d``].\n\nMore");
    assert_eq!(
        patch.append,
        "<p>See <code>a`b</code> and <code>c```d</code>.</p>\n"
    );
}

/// Punctuation a host types before closers the preview adds in two runs
/// (`__**`) makes the first run open as well as close, and the rule of
/// three then leaves it unmatched: the stream says no words go there.
/// (Found by the property tests at 20,000 cases.)
#[test]
fn punctuation_typed_before_two_runs_of_closers_is_pushed() {
    for md in ["w**ht _de _[a]http: b", "a **b _c d: e", "_a **b c; d"] {
        for chunk in 1..4 {
            let cuts: Vec<usize> = (chunk..md.len()).step_by(chunk).collect();
            if let Err(failure) = host_typing_gives_the_tail(md, &cuts) {
                panic!("{md:?} in {chunk}-byte chunks: {failure}");
            }
        }
    }
}

/// A tail the budget keeps showing, in a raw element that renders whole at
/// every push: the provisional index lists the citations it shows, not
/// those of the text pushed since. (Found by the property tests at 100,000
/// cases.)
#[test]
fn a_tail_the_budget_keeps_lists_its_own_citations() {
    let line = "text [1] <b>bold</b> <cite id=\"a\">x</cite>\n";
    let md = [
        "<details>\n[a]: /u\ntext </details> more\n<details>\n",
        "<details><summary>S [1]</summary>\n```\ncode </details>\n",
        "<details><summary>S [1]</summary>\n<details>\ncode </details>\n",
        line,
        line,
        "code </details>\n> quote\n<details>\ncode </details>\n[a]: /u\n\n[a]: /u\n[a]\n",
        line,
        line,
    ]
    .concat();
    if let Err(failure) = streams_with_steps_to_its_one_shot_render(&md, &[], &Options::default()) {
        panic!("{failure}");
    }
}

/// A link reference definition in a quote, and a line indented as code
/// after it: one paragraph, the definition its start and `x` its rest, not
/// a definition then a code block. The quote's children before the
/// paragraph are final; the definition goes with the paragraph. (Found by
/// the streaming suite at 100,000 cases: after a list holding an escaped
/// `<details>`, whose range in the parser takes the definition in.)
#[test]
fn a_definition_in_a_quote_starts_the_paragraph_after_it() {
    let mut escape = Options::default();
    escape.raw_html = citemark::RawHtml::Escape;
    for md in [
        "> - <details>\n> [a]: /a\n>         [^1]> [!NOTE]\n- - ",
        "> - <details>\n> [a]: /a\n>     x\n",
        "> - a\n>\n>   [x]: /u\n> para [x]\n",
        "> text\n>\n> [a]: /a\n> [b]: /b\n>     x [a] [b]\n\nafter\n",
    ] {
        for options in [&escape, &Options::default()] {
            if let Err(failure) = streams_with_steps_to_its_one_shot_render(md, &[], options) {
                panic!("{md:?}: {failure}");
            }
        }
    }
}

/// What a host shows of `message` pushed in `chunks`-byte chunks: the HTML
/// handed over, the tail, and the end tags closing what is open (the
/// document a browser builds of them), its trailing line break aside.
fn shown_after(message: &str, chunks: usize) -> String {
    let mut stream = Stream::new(Options::default());
    let mut html = StreamedHtml::default();
    for chunk in message.as_bytes().chunks(chunks.max(1)) {
        html.apply(&stream.push_bytes(chunk));
    }
    let shown = [html.html(), &stream.tail(), &stream.open_end_tags()].concat();
    shown.trim_end().to_owned()
}

/// A blank line between a list's items makes it loose: its items show
/// loose from the push that brings the next item, whatever came in that
/// push (the items before were committed tight when the blank line and
/// the next item came in one), and the item being typed shows loose too,
/// as it will once committed (it showed tight until its line ended).
#[test]
fn a_loose_lists_items_show_loose_whatever_the_chunks() {
    for message in [
        "x\n\n- a.\n\n- b.\n- c\n",
        "- The smaller latency doubled [2].\n\n- The weekly deployment rose.\n- The stale renewal rose.\n\nAfter.\n",
        "1. one\n\n2. two **bold**\n3. three\n",
        "- a\n  - b\n\n- c\n  - d\n- e\n",
    ] {
        for end in (1..=message.len()).filter(|&end| message.is_char_boundary(end)) {
            let prefix = &message[..end];
            let whole = shown_after(prefix, prefix.len());
            for chunks in [1, 2, 3, 5] {
                assert_eq!(shown_after(prefix, chunks), whole, "{prefix:?} in {chunks}-byte chunks");
            }
        }
    }
}
