//! What the tail reads off text and HTML: where words end, whether text
//! is plain or settled (nothing in it can still pair with what comes),
//! where a line's inline content starts, and the parts of a rendering
//! (its inline content, the tags closing its blocks, a stand-in's place).

use super::TYPING;
use crate::html::is_void_element;
use crate::stream::inline_subset::{can_open_close, Class};
use crate::stream::preview::{
    destinations_closed, item_marker, may_become_prompt_marker, preview, starts_inline_link,
    tag_end, url_being_typed, url_word_start, RowHold,
};
use crate::stream::typing::is_code_span_text;
use crate::stream::{has_any_byte, has_byte, FindLast};

/// `html` around its one [`TYPING`] character, which must be in text (not
/// in an attribute, and not repeated in one either).
pub(super) fn split_at_typing(html: &str) -> Option<(&str, &str)> {
    let at = html.find(TYPING)?;
    let (before, after) = (&html[..at], &html[at + TYPING.len()..]);
    let in_text = before
        .rfind(['<', '>'])
        .is_none_or(|i| before.as_bytes()[i] == b'>');
    (in_text && !after.contains(TYPING)).then_some((before, after))
}

/// Whether `text` has a `close` with no `open` before it (both ASCII).
pub(super) fn closes_before_opening(text: &str, open: u8, close: u8) -> bool {
    if !has_byte(text, close) {
        return false;
    }
    let mut depth = 0usize;
    text.bytes().any(|b| {
        if b == open {
            depth += 1;
        } else if b == close {
            match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            }
        }
        false
    })
}

/// Whether every `[` in `text` is closed by a later `]`.
pub(super) fn brackets_close(text: &str) -> bool {
    let mut depth = 0usize;
    for b in text.bytes() {
        match b {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth == 0
}

/// Where a new word starts (or will): after the last run of spaces that
/// follows something else, or after the last of the marks that end a
/// clause or sentence in text written without spaces (CJK: `。` `，` `、`
/// `！` `？` `；` `：`), following something else and not in a word that
/// may be a link, whichever is later. (Text after a mark reaches back to
/// it only as it would after the stand-in ending in it, `x。`; what
/// reaches further, an emphasis or a bracket open before it, keeps the
/// words before it from settling, as before a space.)
pub(super) fn word_boundary(text: &str) -> Option<usize> {
    let after_spaces = text.find_last(b' ').and_then(|at| {
        let end = at + 1;
        (!text[..end].trim_end_matches(' ').is_empty()).then_some(end)
    });
    // (Each mark's first byte is 0xE3 or 0xEF: found by them, not by
    // decoding every character from the end; and not looked for in ASCII.)
    let after_mark = (!text.is_ascii())
        .then(|| memchr::memrchr2_iter(0xE3, 0xEF, text.as_bytes()))
        .into_iter()
        .flatten()
        .find(|&at| {
            text[at..]
                .chars()
                .next()
                .and_then(stand_in_for_mark)
                .is_some()
        })
        .filter(|&at| at > 0 && !in_link_word(&text[..at]))
        // (Each mark is three bytes long.)
        .map(|at| at + 3);
    after_spaces.max(after_mark)
}

/// Whether the last word of `text` (since its last whitespace) may be a
/// link that goes on past its end: an autolink's URL or address runs to
/// the next whitespace, CJK marks and all (`https://a.io。b`).
fn in_link_word(text: &str) -> bool {
    let word = text.rsplit(char::is_whitespace).next().unwrap_or_default();
    has_any_byte(word, b":@")
        || word
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"www."))
}

/// The stand-in word rendered before the text after `settled`, the
/// settled words (or their HTML): one that ends as they do, so that what
/// follows parses as it does after them. After a space (or the start of a
/// line's content), [`STAND_IN`](super::STAND_IN); after a CJK mark ending
/// a word (see [`word_boundary`]), `x` and that mark: text after `。` is
/// not after whitespace (`。www.a.io` is no link, `x www.a.io` is one).
pub(super) fn stand_in_after(settled: &str) -> &'static str {
    settled
        .chars()
        .next_back()
        .and_then(stand_in_for_mark)
        .unwrap_or(super::STAND_IN)
}

/// The stand-in after `c` when it is one of the marks [`word_boundary`]
/// ends a word after (each three bytes long, starting with 0xE3 or 0xEF).
fn stand_in_for_mark(c: char) -> Option<&'static str> {
    match c {
        '。' => Some("x。"),
        '，' => Some("x，"),
        '、' => Some("x、"),
        '！' => Some("x！"),
        '？' => Some("x？"),
        '；' => Some("x；"),
        '：' => Some("x："),
        _ => None,
    }
}

/// Where the inline content of `line` starts, after its block markers
/// (`>`, a list item's marker, a heading's `#`s), if what is typed of it
/// can only be inline text: it starts with a letter or an emphasis or
/// code span opening on one (`**Bold`), not with what could still open a
/// block of its own (`-`, `1.`, `>`, a fence, a table row), nor with `[`
/// (a link reference definition) but an inline link's label that a `(`
/// follows ([`starts_inline_link`]), nor with a digit (the preview holds
/// a number opening a line) but in a heading (`### 2. Costs`).
pub(super) fn inline_content_start(line: &str) -> Option<usize> {
    let unindented = after_container_markers(line);
    let hashes = unindented.bytes().take_while(|&b| b == b'#').count();
    let heading = (1..=6).contains(&hashes) && unindented[hashes..].starts_with(' ');
    let rest = match heading {
        true => unindented[hashes..].trim_start_matches(' '),
        false => unindented,
    };
    let mut chars = rest.chars();
    let first = chars.next()?;
    let opens_span = |c: char| matches!(c, '*' | '_' | '~' | '`');
    let inline = first.is_alphabetic()
        || (heading && first.is_ascii_digit())
        || starts_inline_link(rest)
        || (opens_span(first) && {
            let second = chars.next()?;
            second.is_alphabetic() || (second == first && chars.next()?.is_alphabetic())
        });
    inline.then_some(line.len() - rest.len())
}

/// `line` after the markers of the quotes and list items it is in (`> `,
/// `- `, `1. `), each with the spaces around it.
pub(super) fn after_container_markers(line: &str) -> &str {
    let mut rest = line.trim_start_matches(' ');
    loop {
        if let Some(quoted) = rest.strip_prefix('>') {
            rest = quoted;
        } else if let Some(item) = after_list_marker(rest) {
            rest = item;
        } else {
            return rest;
        }
        rest = rest.trim_start_matches(' ');
    }
}

/// The text after a list item's marker and its space, if `line` starts
/// with one.
pub(super) fn after_list_marker(line: &str) -> Option<&str> {
    item_marker(line)?.1.strip_prefix(' ')
}

/// A cheap first look for [`is_settled`]: words with an odd number of `*`
/// or backticks, or unmatched brackets, are most likely in a span or link
/// still open (when not, they only settle later).
pub(super) fn may_be_settled(words: &str) -> bool {
    let count = |b: u8| memchr::memchr_iter(b, words.as_bytes()).count();
    count(b'*') % 2 == 0 && count(b'`') % 2 == 0 && count(b'[') == count(b']')
}

/// Whether the preview leaves `text` as it is (bar trailing spaces):
/// nothing at its end is still being typed. (Nor is a link's destination
/// left open: the preview looks at the last link only, and a `)` to come
/// may close an earlier one's. Nor is a `$` left unpaired, wherever it is:
/// the preview pairs a `$` to come with those before it in its block, as
/// typed, in code spans and link destinations too.)
pub(super) fn is_settled(text: &str) -> bool {
    let dollars = memchr::memchr_iter(b'$', text.as_bytes()).count();
    // (The preview last: it costs the most.)
    dollars % 2 == 0
        && destinations_closed(text)
        && preview(text).text == text.trim_end_matches(' ')
}

/// A line's settled part: it has a letter (so the line is not a rule, an
/// underline or a list marker still being typed) and its tags are settled,
/// no cite tag left open ([`open_cite_tags`]).
pub(super) fn line_is_settled(line: &str) -> bool {
    line.chars().any(char::is_alphabetic) && open_cite_tags(line).is_some_and(|depth| depth == 0)
}

/// Whether `text`'s tags are settled, but for cite tags left open
/// ([`open_cite_tags`]).
pub(super) fn tags_are_settled(text: &str) -> bool {
    open_cite_tags(text).is_some()
}

/// How many cite tags `text` leaves open, if its other tags are settled:
/// every `<` is text that no later character can make a tag (`a < b`), a
/// whole autolink (`<https://…>`), or a whole tag that opens no element
/// (`<br>`, `<img …/>`) or whose element closes in `text`, inside the
/// elements open around it (`<kbd>Ctrl</kbd>`); and no cite tag closes
/// before it opens. The sanitizer closes an element left open at the end
/// of what it renders, wherever that is, so text after it would render
/// otherwise behind a stand-in. (A comment or `<?…?>` may hold a `>`:
/// none is read as settled.)
pub(super) fn open_cite_tags(text: &str) -> Option<usize> {
    if !has_byte(text, b'<') {
        return Some(0);
    }
    // (The elements open: cite tags, and others by name.)
    let mut open: Vec<&str> = Vec::new();
    let mut at = 0;
    while let Some(lt) = memchr::memchr(b'<', &text.as_bytes()[at..]).map(|i| at + i) {
        let tag = &text[lt + 1..];
        let starts = |name: &str| {
            tag.get(..name.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(name))
        };
        at = lt + 1;
        // (Cite tags count as they are typed: their label is the rest.)
        if starts("cite") {
            if !tag.find('>').is_some_and(|end| tag[..end].ends_with('/')) {
                open.push("cite");
            }
            continue;
        }
        if starts("/cite") {
            open.pop().filter(|name| *name == "cite")?;
            continue;
        }
        match tag.bytes().next() {
            Some(b) if b.is_ascii_alphabetic() || b == b'/' => {}
            Some(b'!' | b'?') | None => return None,
            Some(_) => continue,
        }
        let end = tag_end(tag)?;
        at = lt + 1 + end;
        let inside = &tag[..end - 1];
        if let Some(closing) = inside.strip_prefix('/') {
            let name = closing.trim_end_matches([' ', '\t', '\n']);
            let top = open.pop()?;
            if !(is_tag_name(name) && top.eq_ignore_ascii_case(name)) {
                return None;
            }
            continue;
        }
        let (name, after) = inside.split_at(
            inside
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(inside.len()),
        );
        match after.bytes().next() {
            // (An autolink, or text: either way what comes cannot change it.)
            Some(b':' | b'@' | b'.' | b'+') if !inside.contains([' ', '\t', '\n']) => {}
            None | Some(b' ' | b'\t' | b'\n' | b'/') => {
                if !(after.ends_with('/') || is_void_element(name)) {
                    open.push(name);
                }
            }
            Some(_) => return None,
        }
    }
    open.iter()
        .all(|name| *name == "cite")
        .then_some(open.len())
}

/// Whether `name` is an HTML tag's name as CommonMark reads one.
fn is_tag_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Whether every cite tag in `text` became a citation in its `html`: a tag
/// left unpaired (its `</cite>` inside emphasis) may pair with a later one.
pub(super) fn cites_paired(text: &str, html: &str) -> bool {
    let text = text.as_bytes();
    let tags = memchr::memchr_iter(b'<', text)
        .filter(|&at| {
            text.get(at + 1..at + 5)
                .is_some_and(|name| name.eq_ignore_ascii_case(b"cite"))
        })
        .count();
    // (`data-citation-kind="cite"`, found by its `=`: a searcher for the
    // whole attribute costs more to set up than the search over a piece.)
    let html = html.as_bytes();
    let elements = memchr::memchr_iter(b'=', html)
        .filter(|&at| {
            html[..at].ends_with(b"data-citation-kind") && html[at + 1..].starts_with(br#""cite""#)
        })
        .count();
    tags == elements
}

/// Whether a line of `text` starts with `<`, after any quote and list
/// item markers, where it may open an HTML block, which hides the fences
/// inside it from the parser but not the preview, and takes in the lines
/// after it (`- <details>` then `  - a`: no nested item).
pub(super) fn has_html_line(text: &str) -> bool {
    // (Most text holds no `<` at all: one vectorized search says so.)
    has_byte(text, b'<')
        && text.split('\n').any(|line| {
            after_container_markers(line)
                .strip_prefix('<')
                .is_some_and(may_open_html_block)
        })
}

/// Whether a line starting with `<` then `rest` may open an HTML block:
/// `rest` starts with a tag's name, `/`, `!` or `?`, or is still to come;
/// not an autolink (`<https://…>`, `<me@x.y>`), whose scheme or user ends
/// where no tag's name can, nor `< b`.
fn may_open_html_block(rest: &str) -> bool {
    match rest.bytes().next() {
        None | Some(b'/' | b'!' | b'?') => true,
        Some(b) if b.is_ascii_alphabetic() => {
            let name = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            !matches!(rest.as_bytes().get(name), Some(b':' | b'@' | b'.' | b'+'))
        }
        Some(_) => false,
    }
}

/// Whether a line of `text` may start an HTML block that blank lines do
/// not end: a comment, `<?`, `<!X`, CDATA, or `<script>`, `<pre>`,
/// `<style>`, `<textarea>` (CommonMark's kinds 1 to 5).
pub(super) fn may_open_html_across_blank_lines(text: &str) -> bool {
    has_byte(text, b'<')
        && text.split('\n').any(|line| {
            let line = line.trim_start_matches(' ');
            line.starts_with("<!")
                || line.starts_with("<?")
                || ["script", "pre", "style", "textarea"].iter().any(|tag| {
                    line.get(1..1 + tag.len())
                        .is_some_and(|name| line.starts_with('<') && name.eq_ignore_ascii_case(tag))
                })
        })
}

/// What a byte is to the tail's checks (see [`byte_classes`]).
pub(super) const SYNTAX: u8 = 1;
const URL_MARK: u8 = 2;
const URL_START: u8 = 4;
pub(super) const CLOSE_BRACKET: u8 = 8;
pub(super) const CLOSE_PAREN: u8 = 16;
pub(super) const HASH: u8 = 32;
const BYTE_CLASSES: [u8; 256] = {
    let mut classes = [0; 256];
    // (`$` opens and closes math, which is on by default; with it off a
    // `$` only costs the cache a miss.)
    let syntax = b"*_`[]<>|&~\\#$\t\r\n\0";
    let mut i = 0;
    while i < syntax.len() {
        classes[syntax[i] as usize] = SYNTAX;
        i += 1;
    }
    classes[b']' as usize] |= CLOSE_BRACKET;
    classes[b'#' as usize] |= HASH;
    classes[b')' as usize] = CLOSE_PAREN;
    classes[b':' as usize] = URL_MARK;
    classes[b'@' as usize] = URL_MARK;
    classes[b'h' as usize] = URL_START;
    classes[b'H' as usize] = URL_START;
    classes[b'w' as usize] = URL_START;
    classes[b'W' as usize] = URL_START;
    classes
};

/// What the bytes of `text` are, or-ed: [`SYNTAX`] (markdown syntax, but
/// for `(`, `)`, `!`, `^`), [`CLOSE_BRACKET`], [`CLOSE_PAREN`],
/// [`HASH`], and what may start or mark a URL. One look at a text answers
/// [`is_plain`], [`renders_as_itself`] and the tail's other questions.
pub(super) fn byte_classes(text: &str) -> u8 {
    text.bytes()
        .fold(0, |classes, b| classes | BYTE_CLASSES[usize::from(b)])
}

/// Whether text has no markdown syntax at all: it renders as itself.
/// (`(`, `)` and `!` only count next to brackets, which are syntax
/// themselves; but the preview holds a `(` or `!` ending the text back.
/// Superscripts are not on: `^` is text.)
pub(super) fn is_plain(text: &str) -> bool {
    byte_classes(text) & SYNTAX == 0 && !ends_held(text)
}

/// Whether `text` ends (but for spaces) in what the preview holds back.
fn ends_held(text: &str) -> bool {
    text.trim_end_matches(' ').ends_with(['(', '!'])
}

/// Whether `text`, the text since a settled word, opens an emphasis or a
/// strikethrough (`*`, `**`, `***`, `_`, `__`, `___`, `~~`) on words that
/// [render as themselves](renders_as_itself), the first starting with a
/// letter or digit, of any script (before which the run is left-flanking):
/// the preview closes the span after them (their spaces ending them and a
/// URL being typed aside, as after any words), so that words typed next go
/// inside it.
pub(super) fn opens_span_on_plain_words(text: &str) -> bool {
    let Some(&mark) = text.as_bytes().first() else {
        return false;
    };
    let run = text.bytes().take_while(|&b| b == mark).count();
    let opens = match mark {
        b'*' | b'_' => run <= 3,
        b'~' => run == 2,
        _ => return false,
    };
    // (The run is ASCII: `text[run..]` starts at a character.)
    let words = &text[run..];
    opens && words.starts_with(char::is_alphanumeric) && renders_as_itself(words)
}

/// Whether `text`, the text since a settled word, opens a link's label on
/// words that [render as themselves](renders_as_itself), the first
/// starting with a letter, of any script (not a digit: `[1` may be a
/// marker being typed, which the preview holds back): where the preview
/// shows such a label, it shows its words without the `[` (and the tail's
/// text says whether it does: not at a block's start, where it may yet be
/// a definition's), and words typed next go on with them. Not a label
/// that may yet be a prompt template's marker (`[Sourc`, held once a `:`
/// and a number follow).
pub(super) fn opens_label_on_plain_words(text: &str) -> bool {
    text.strip_prefix('[').is_some_and(|words| {
        words.starts_with(char::is_alphabetic)
            && renders_as_itself(words)
            && !may_become_prompt_marker(words)
    })
}

/// Whether `text`, the text since a settled word, opens a code span on
/// text that typing in it shows as typed ([`Typing::CodeSpan`]): a run of
/// backticks, then text without one, not starting with a space (a space at
/// both ends is stripped once the span ends) nor ending in one (which the
/// preview drops), whose last word is no URL being typed, which the
/// preview holds back (after the `*` and `_` opening it, as the preview
/// reads a word).
///
/// [`Typing::CodeSpan`]: crate::Typing::CodeSpan
pub(super) fn opens_code_span(text: &str) -> bool {
    let ticks = text.bytes().take_while(|&b| b == b'`').count();
    // (The run is ASCII: `text[ticks..]` starts at a character.)
    let content = &text[ticks..];
    // (Nor may text typed after it make one: its last word holds more than
    // the `*` and `_` opening it.)
    let last_word = content.rsplit(' ').next().unwrap_or_default();
    let last_word = &last_word[url_word_start(last_word)..];
    ticks > 0
        && !content.starts_with(' ')
        && is_code_span_text(content)
        && !last_word.is_empty()
        && !url_being_typed(last_word)
}

/// Whether `text` renders as itself and none of its words may become a
/// link: [`is_plain`] and not [`has_url_like_word`], in one pass.
pub(super) fn renders_as_itself(text: &str) -> bool {
    classes_render_as_itself(text, byte_classes(text))
}

/// [`renders_as_itself`], the [`byte_classes`] of `text` known.
pub(super) fn classes_render_as_itself(text: &str, classes: u8) -> bool {
    classes & (SYNTAX | URL_MARK) == 0
        && !ends_held(text)
        && (classes & URL_START == 0 || !has_url_like_word(text))
}

/// Whether a word may be or become a link: a URL or an e-mail address,
/// or (the last word) the start of a URL, which the preview holds back.
pub(super) fn has_url_like_word(text: &str) -> bool {
    // (Every URL starts with `h` or `w`, or has a `:` or `@`.)
    let bytes = text.as_bytes();
    let mut may_be_url = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b':' | b'@' => return true,
            b'h' | b'H' => may_be_url = true,
            b'w' | b'W' => {
                if bytes
                    .get(i..i + 4)
                    .is_some_and(|w| w.eq_ignore_ascii_case(b"www."))
                {
                    return true;
                }
                may_be_url = true;
            }
            _ => {}
        }
    }
    may_be_url && last_word_starts_url(text)
}

/// Whether the last word of `text` (leading punctuation aside: `*www.`,
/// `(https://`) is the start of a URL being typed. Words end at any
/// whitespace, as in the preview: U+3000 too.
fn last_word_starts_url(text: &str) -> bool {
    let text = text.trim_end_matches(' ');
    let bytes = text.as_bytes();
    // (An ASCII word is read off its bytes.)
    let word_start = bytes
        .iter()
        .rposition(|&b| !b.is_ascii_graphic())
        .map_or(0, |i| i + 1);
    if bytes
        .get(word_start.wrapping_sub(1))
        .is_none_or(|&b| b == b' ')
    {
        return starts_url(&text[word_start..]);
    }
    let last = text.rsplit(char::is_whitespace).next().unwrap_or_default();
    starts_url(last)
}

/// Whether `word`, leading punctuation aside, is the start of a URL being
/// typed (`h`, `htt`, `https`, `ww`), as the preview holds one back:
/// lowercase (`Wh` is no URL).
fn starts_url(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    !word.is_empty()
        && ["https://", "http://", "www."]
            .iter()
            .any(|url| url.starts_with(word))
}

/// Whether the inline HTML `html` leaves nothing that a later delimiter
/// could pair with: no literal `*`, `_`, `~`, backtick, bracket or `<` in
/// its text (code spans aside).
pub(super) fn text_is_settled(html: &str) -> bool {
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        // (What the text before a tag was followed by in the source: the
        // punctuation an element's syntax starts or ends with (`[1]`,
        // `**`, `` ` ``, `<b>`), but for a link's start, which may be an
        // autolink's letters.)
        let then = match rest[lt..].starts_with("<a ") || rest[lt..].starts_with("<a>") {
            true => None,
            false => Some('.'),
        };
        if !text_run_is_settled(&rest[..lt], then) {
            return false;
        }
        rest = &rest[lt..];
        let skip_to = if rest.starts_with("<code") {
            rest.find("</code>").map(|i| i + "</code>".len())
        } else {
            rest.find('>').map(|i| i + 1)
        };
        let Some(skip_to) = skip_to else {
            return false;
        };
        rest = &rest[skip_to..];
    }
    text_run_is_settled(rest, None)
}

/// [`text_is_settled`] for a run of text, followed by the character `then`
/// (`None`: not known).
fn text_run_is_settled(text: &str, then: Option<char>) -> bool {
    // (A `$` may yet pair with one typed later: math.)
    !has_any_byte(text, b"_~`$")
        && stars_cannot_open(text, then)
        && !text.contains("&lt;")
        && brackets_are_closed(text)
}

/// Whether no run of literal `*` in the text `text` can open an emphasis
/// that a `*` typed later would close: none is left-flanking (CommonMark
/// 6.2), the characters around it known. So a run after a letter and
/// before punctuation, as a currency sign is to the parser (`达到**¥35万**。`
/// keeps its asterisks, and nothing typed after pairs with them). A run at
/// the start of the text, or next to a character whose class is not known
/// here (an entity's `&`), may open; at its end, it is followed by `then`.
fn stars_cannot_open(text: &str, then: Option<char>) -> bool {
    // (Classed as the inline subset classes a delimiter's neighbours, any
    // whitespace a space; an entity's `&`, a control, the typing mark and
    // what the subset does not know, not known here.)
    let class = |c: Option<char>| match c? {
        c if c.is_whitespace() => Some(Class::Space),
        c if c == '&' || c.is_ascii_control() || c == '\u{E000}' => None,
        c => Some(Class::of(Some(c))).filter(|&class| class != Class::Unknown),
    };
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'*', &bytes[at..]) {
        let start = at + found;
        let end = start + bytes[start..].iter().take_while(|&&b| b == b'*').count();
        let before = class(text[..start].chars().next_back());
        let after = class(text[end..].chars().next().or(then));
        let can_open = match (before, after) {
            (Some(before), Some(after)) => {
                can_open_close(b'*', before, after).is_none_or(|(can_open, _)| can_open)
            }
            _ => true,
        };
        if can_open {
            return false;
        }
        at = end;
    }
    true
}

/// Whether every `[` in the text `text` is closed by a `]` after which
/// nothing typed later can make a link of them: a space or punctuation
/// follows it in the same text (`[citation needed], as`), not a `(` or `[`
/// (a link's destination or label to come) nor a `:` (a definition), nor
/// the end of the text. The parser left them literal: only a definition of
/// their label could still change them, and a definition is written on a
/// line of its own, which the tail does not settle across. A `]` with no
/// `[` before it pairs with none later.
fn brackets_are_closed(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut open = 0usize;
    for at in memchr::memchr2_iter(b'[', b']', bytes) {
        if bytes[at] == b'[' {
            open += 1;
            continue;
        }
        let Some(inner) = open.checked_sub(1) else {
            continue;
        };
        open = inner;
        let after = bytes.get(at + 1).copied();
        let closes = after.is_some_and(|b| {
            b == b' ' || b.is_ascii_punctuation() && !matches!(b, b'(' | b'[' | b':' | b'&')
        });
        if !closes {
            return false;
        }
    }
    open == 0
}

/// The inline content of the innermost block that `head` leaves open.
pub(super) fn innermost_block(head: &str) -> &str {
    let mut end = head.len();
    while let Some(lt) = head[..end].find_last(b'<') {
        let tag = &head[lt..];
        let opens_block = ["<p>", "<li>"].iter().any(|t| tag.starts_with(t))
            || (tag.len() >= 4
                && tag.starts_with("<h")
                && matches!(tag.as_bytes()[2], b'1'..=b'6')
                && tag.as_bytes()[3] == b'>');
        if opens_block {
            return &head[head[lt..].find('>').map_or(lt, |i| lt + i + 1)..];
        }
        end = lt;
    }
    head
}

/// Splits a rendering that ends in inline content into that content and
/// the tags closing its blocks; says whether the innermost is a heading.
pub(super) fn split_closers(html: &str) -> Option<(&str, &str, bool)> {
    let mut end = html.len();
    let mut innermost = None;
    loop {
        let trimmed = html[..end].trim_end_matches('\n');
        let Some(tag_start) = trimmed
            .ends_with('>')
            .then(|| trimmed.find_last(b'<'))
            .flatten()
        else {
            break;
        };
        let tag = &trimmed[tag_start..];
        let inline_container = matches!(tag, "</p>" | "</li>")
            || (tag.len() == 5
                && tag.starts_with("</h")
                && matches!(tag.as_bytes()[3], b'1'..=b'6'));
        // (`</div>`: a footnote definition's; raw HTML is not settled.)
        if !inline_container && !matches!(tag, "</ul>" | "</ol>" | "</blockquote>" | "</div>") {
            break;
        }
        innermost = Some(inline_container.then_some(tag.starts_with("</h")));
        end = tag_start;
    }
    let heading = innermost??;
    // Inline content runs up to its closer; a newline there ends a block
    // (an item holding a code block).
    (!html[..end].ends_with('\n')).then_some((&html[..end], &html[end..], heading))
}

/// The inline content of the rendering of `stand_in` + text, and whether
/// the space ending [`STAND_IN`](super::STAND_IN) survived (it does not
/// when the paragraph ends with it); after a stand-in ending in a mark
/// (`x。`), what follows it.
pub(super) fn stand_in_content<'h>(html: &'h str, stand_in: &str) -> Option<(&'h str, bool)> {
    let inner = html.strip_prefix("<p>x")?.strip_suffix("</p>\n")?;
    if stand_in != super::STAND_IN {
        // (A mark is text: it is always there.)
        return Some((inner.strip_prefix(stand_in.strip_prefix('x')?)?, true));
    }
    match inner.strip_prefix(' ') {
        Some(content) => Some((content, true)),
        None => inner.is_empty().then_some((inner, false)),
    }
}

/// Whether the preview still holds back the table row `line` (unless it
/// turns into a code fence).
pub(super) fn still_held(hold: RowHold, line: &str) -> bool {
    let delimiter_only = || line.bytes().all(|b| matches!(b, b'|' | b'-' | b':' | b' '));
    !line.trim_start_matches(' ').starts_with(['`', '~'])
        && (hold == RowHold::UntilNewline || delimiter_only())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::tail::STAND_IN;

    #[test]
    fn words_end_after_spaces_and_after_cjk_marks_outside_links() {
        assert_eq!(word_boundary("a b"), Some(2));
        assert_eq!(word_boundary("  a"), None, "spaces that follow nothing");
        assert_eq!(word_boundary("中文。更多"), Some("中文。".len()));
        assert_eq!(
            word_boundary("中文。更 多"),
            Some("中文。更 ".len()),
            "the later"
        );
        assert_eq!(word_boundary("a b，c"), Some("a b，".len()));
        assert_eq!(word_boundary("。更多"), None, "a mark that follows nothing");
        // An autolink runs on through the marks, to the next whitespace.
        assert_eq!(word_boundary("见https://a.io。更多"), None);
        assert_eq!(word_boundary("a www.a.io，b"), Some(2));
        assert_eq!(word_boundary("写信给a@b.io。"), None);
        assert_eq!(stand_in_after("中文。"), "x。");
        assert_eq!(stand_in_after("a "), STAND_IN);
        assert_eq!(
            stand_in_content("<p>x。<strong>更</strong></p>\n", "x。"),
            Some(("<strong>更</strong>", true))
        );
        assert_eq!(stand_in_content("<p>x</p>\n", STAND_IN), Some(("", false)));
    }

    #[test]
    fn closers_are_split_off_inline_content() {
        assert_eq!(
            split_closers("<p>a <em>b</em></p>\n"),
            Some(("<p>a <em>b</em>", "</p>\n", false))
        );
        assert_eq!(
            split_closers("<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"),
            Some(("<ul>\n<li>one</li>\n<li>two", "</li>\n</ul>\n", false))
        );
        assert_eq!(split_closers("<h2>Title</h2>\n").map(|s| s.2), Some(true));
        assert_eq!(split_closers("<pre><code>x</code></pre>\n"), None);
        assert_eq!(split_closers("<ul>\n</ul>\n"), None);
        assert_eq!(
            split_closers("<li>\n<pre><code>x\n</code></pre>\n</li>\n"),
            None
        );
    }

    #[test]
    fn settled_text_leaves_nothing_to_pair_with() {
        assert!(text_is_settled("a <strong>b</strong> <code>x_*y</code>"));
        assert!(text_is_settled(r#"<a data-citation-key="call_1">1</a>"#));
        assert!(!text_is_settled("a *b"));
        // (Literal asterisks that cannot open, between spaces or before
        // punctuation after a letter: nothing typed later pairs with them.
        // Those that may, or whose neighbours are not known here, may.)
        assert!(text_is_settled("a * b"));
        assert!(text_is_settled("达到**¥35万**。"));
        assert!(text_is_settled("a**.b"));
        assert!(!text_is_settled("达到**35万"));
        assert!(!text_is_settled("a**é"));
        assert!(!text_is_settled("**¥"));
        assert!(!text_is_settled("a**&amp;"));
        // (Before an element, what its syntax starts with: punctuation,
        // but for a link, which may be an autolink's letters.)
        assert!(text_is_settled("达到**¥35万**<sup>4</sup>。"));
        assert!(!text_is_settled("达到**<a href=\"http://a.io\">a.io</a>"));
        assert!(!text_is_settled("a &lt;b"));
        // Brackets the parser left literal, closed where nothing typed
        // later makes a link of them.
        assert!(text_is_settled(
            "see [7] and [citation needed], as [a [b] c]."
        ));
        for open in [
            "see [7", "see [7]", "see [7](", "see [7][", "[a]: ", "[a [b] c", "[a]&amp;",
        ] {
            assert!(!text_is_settled(open), "{open}");
        }
        assert!(text_is_settled("a] b"), "a `]` that no `[` opened");
    }

    #[test]
    fn a_span_opened_on_plain_words_is_typed_into() {
        for text in ["**legacy rol", "*a b", "___x", "~~gone, 12", "_1"] {
            assert!(opens_span_on_plain_words(text), "{text}");
        }
        // (Not `~`, four `*`, a space or comma after the opener, syntax or a
        // URL after it, a character wider than a byte: nothing to go on.)
        for text in [
            "~a",
            "****a",
            "** a",
            "*,a",
            "**a*b",
            "**a www.x",
            "更**a",
            "**",
            "",
        ] {
            assert!(!opens_span_on_plain_words(text), "{text}");
        }
    }

    #[test]
    fn words_that_may_become_links_are_not_plain_text() {
        assert!(has_url_like_word("see htt"));
        assert!(has_url_like_word("see ww"));
        assert!(has_url_like_word("see *w"));
        assert!(
            has_url_like_word("é h    "),
            "the preview trims the spaces, then holds `h`"
        );
        assert!(has_url_like_word("see www.exa"));
        assert!(has_url_like_word("at https://x.example now"));
        assert!(has_url_like_word("mail me@host"));
        assert!(!has_url_like_word("see what"));
        assert!(
            !has_url_like_word("see Wh"),
            "the preview holds lowercase starts only"
        );
        assert!(!has_url_like_word("the end."));
    }

    #[test]
    fn settled_lines_have_words_and_whole_tags() {
        assert!(line_is_settled("a <cite id=\"x\">b</cite> "));
        assert!(!line_is_settled("a <cite id=\"x\">b "));
        assert!(!line_is_settled("a <b>bold "));
        assert!(!line_is_settled("1. "));
        assert!(!line_is_settled("a </cite> b <cite> "));
        assert!(!line_is_settled("a <cite id='b'/> c </cite> "));
        // A line starting with an autolink opens no HTML block.
        assert!(!has_html_line("a\n<https://x.y/z>, b\n> < c\n- <me@x.y>"));
        for html in ["<details>", "> <", "- </b>", "<!-- c", "<x", "<?php"] {
            assert!(has_html_line(&format!("a\n{html}")), "{html:?}");
        }
        // Other tags, where nothing typed after them can change them.
        for settled in [
            "a <https://x.y/z?q=1> b ",
            "a <me@x.y> b ",
            "a <kbd>Ctrl</KBD> + <kbd title='>'>C</kbd> b ",
            "a <br> b <img src=\"/i.png\" /> c ",
            "a < b <1 c ",
            "a <b><cite id=\"x\">c</cite></b> d ",
        ] {
            assert!(line_is_settled(settled), "{settled:?}");
        }
        for unsettled in [
            "a <b>x</i> ",
            "a <b>x ",
            "a </b> ",
            "a <!-- c --> ",
            "a <b title='x> ",
            "a <b ",
            "a <",
            "a <b><cite>c</b></cite> ",
        ] {
            assert!(!line_is_settled(unsettled), "{unsettled:?}");
        }
        assert_eq!(
            innermost_block("<ul>\n<li>a</li>\n<li>b <em>c</em>"),
            "b <em>c</em>"
        );
    }
}
