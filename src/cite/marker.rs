//! Numeric markers: `[1]`, `[1, 3]`, `[1,2,3]`, `[1-3]` and Open WebUI's
//! `[1#page=3]`; and, each behind its own switch, the spellings other
//! products use: Copilot's `[^1^]`, prompt templates' `[citation:3]` and
//! `[source: 3]`, and OpenAI file search's `【3†source】`.
//!
//! The scanner works on one run of plain text. Whether that text may hold
//! markers at all (not code, not link text, not escaped) is the adaptor's
//! concern.

use std::ops::Range;

use crate::options::Syntaxes;

/// The widest range `[a-b]` expanded into citations; a wider one is text.
const MAX_RANGE_SPAN: u32 = 20;
/// The most digits read as a number (keeps it inside `u32`).
pub(crate) const MAX_DIGITS: usize = 9;

/// The words that may open a prompt template's marker, `[citation:3]`.
pub(crate) const PROMPT_WORDS: [&str; 2] = ["citation", "source"];
/// OpenAI file search's brackets and the dagger before its label.
pub(crate) const FILE_SEARCH_OPEN: char = '\u{3010}';
pub(crate) const FILE_SEARCH_CLOSE: char = '\u{3011}';
pub(crate) const FILE_SEARCH_DAGGER: char = '\u{2020}';

/// Which spellings of a marker group are recognized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spellings {
    /// `[1]`, `[1, 3]`, `[1-3]`, `[1#page=3]`.
    pub(crate) plain: bool,
    /// `[^1^]`.
    pub(crate) caret: bool,
    /// `[citation:3]`, `[source: 3]`.
    pub(crate) prompt: bool,
    /// `【3†source】`, `【3:0†report.pdf】`.
    pub(crate) file_search: bool,
}

impl Spellings {
    /// `[1]` and its variants alone (link labels, `<sup>[1]</sup>`).
    pub(crate) const PLAIN: Spellings = Spellings {
        plain: true,
        caret: false,
        prompt: false,
        file_search: false,
    };

    /// The spellings `syntaxes` switch on.
    pub(crate) fn of(syntaxes: Syntaxes) -> Self {
        Spellings {
            plain: syntaxes.markers,
            caret: syntaxes.copilot_markers,
            prompt: syntaxes.prompt_markers,
            file_search: syntaxes.file_search_markers,
        }
    }

    /// Whether any spelling is on.
    pub(crate) fn any(self) -> bool {
        self.plain || self.caret || self.prompt || self.file_search
    }
}

/// One bracketed marker group, such as `[1, 3]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Marker {
    /// Byte range of `[…]` in the scanned text.
    pub(crate) range: Range<usize>,
    /// `first..=last` for `[n]` and `[a-b]`; a comma list is in `more`.
    first: u32,
    last: u32,
    /// The numbers after the first in `[1, 3, 5]` (empty otherwise, so the
    /// common single marker allocates nothing).
    more: Vec<u32>,
    /// The fragment of `[n#fragment]`, without `#`.
    pub(crate) fragment: Option<String>,
}

impl Marker {
    /// The numbers cited, in written order (a range expanded).
    pub(crate) fn numbers(&self) -> impl Iterator<Item = u32> + '_ {
        (self.first..=self.last).chain(self.more.iter().copied())
    }
}

/// Every marker group in `text` spelled one of the `spellings`, in order
/// (found as they are taken: most texts hold one or two, and no list is
/// built for them).
pub(crate) fn find_markers(text: &str, spellings: Spellings) -> impl Iterator<Item = Marker> + '_ {
    let bytes = text.as_bytes();
    // (`【` is the only spelling not opened by `[`; its first byte is 0xE3.)
    let second = if spellings.file_search { 0xE3 } else { b'[' };
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(offset) = memchr::memchr2(b'[', second, bytes.get(from..)?) {
            let start = from + offset;
            match parse_marker(text, start, spellings) {
                Some(marker) => {
                    from = marker.range.end;
                    return Some(marker);
                }
                None => from = start + 1,
            }
        }
        from = bytes.len();
        None
    })
}

/// The marker groups of `text` when it is nothing but plain marker groups
/// (and spaces), like `[1][2]`; otherwise none.
pub(crate) fn only_markers(text: &str) -> Vec<Marker> {
    let markers: Vec<Marker> = find_markers(text, Spellings::PLAIN).collect();
    let mut end = 0;
    for marker in &markers {
        if !text[end..marker.range.start].trim().is_empty() {
            return Vec::new();
        }
        end = marker.range.end;
    }
    if end == 0 || !text[end..].trim().is_empty() {
        return Vec::new();
    }
    markers
}

/// Parses the marker group opening at `text[start]` (a `[` or a `【`).
fn parse_marker(text: &str, start: usize, spellings: Spellings) -> Option<Marker> {
    let rest = &text[start..];
    if rest.starts_with(FILE_SEARCH_OPEN) && spellings.file_search {
        return parse_file_search(text, start);
    }
    if !rest.starts_with('[') {
        return None;
    }
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        pos: start + 1,
    };
    let caret = spellings.caret && cursor.peek() == Some(b'^');
    if caret {
        cursor.pos += 1;
    } else if let Some(word) = spellings.prompt.then(|| prompt_word(&rest[1..])).flatten() {
        cursor.pos += word;
        cursor.skip_spaces();
    } else if !spellings.plain {
        return None;
    }
    let first = cursor.number()?;
    let mut last = first;
    let mut more = Vec::new();
    let mut fragment = None;
    match cursor.peek()? {
        b']' => {}
        b'^' if caret => {}
        b'#' if !caret => {
            cursor.pos += 1;
            let frag_start = cursor.pos;
            cursor.skip_while(|b| b.is_ascii_alphanumeric() || b"=&_.:-".contains(&b));
            if cursor.pos == frag_start {
                return None;
            }
            fragment = Some(text[frag_start..cursor.pos].to_owned());
        }
        b'-' | b'\xE2' => {
            cursor.dash()?;
            last = cursor.number()?;
            if last < first || last - first > MAX_RANGE_SPAN {
                return None;
            }
        }
        _ => loop {
            cursor.skip_spaces();
            match cursor.peek()? {
                b']' => break,
                b'^' if caret => break,
                b',' => {
                    cursor.pos += 1;
                    cursor.skip_spaces();
                    more.push(cursor.number()?);
                }
                _ => return None,
            }
        },
    }
    cursor.skip_spaces();
    if caret {
        (cursor.peek()? == b'^').then_some(())?;
        cursor.pos += 1;
    }
    (cursor.peek()? == b']').then(|| Marker {
        range: start..cursor.pos + 1,
        first,
        last,
        more,
        fragment,
    })
}

/// The length of `citation:` or `source:` (any case) starting `text`.
fn prompt_word(text: &str) -> Option<usize> {
    PROMPT_WORDS.iter().find_map(|word| {
        let head = text.get(..word.len())?;
        let colon = text.as_bytes().get(word.len()) == Some(&b':');
        (head.eq_ignore_ascii_case(word) && colon).then_some(word.len() + 1)
    })
}

/// `【3†source】` or `【3:0†report.pdf】` at `start`: cites source 3. (The
/// `:0` numbers the passage within the search; the label is the file's.)
fn parse_file_search(text: &str, start: usize) -> Option<Marker> {
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        pos: start + FILE_SEARCH_OPEN.len_utf8(),
    };
    let number = cursor.number()?;
    if cursor.peek() == Some(b':') {
        cursor.pos += 1;
        cursor.number()?;
    }
    let rest = text.get(cursor.pos..)?.strip_prefix(FILE_SEARCH_DAGGER)?;
    let label_end = rest.find(FILE_SEARCH_CLOSE)?;
    // A label is a file name or `source`: one line, no nested bracket.
    let label = &rest[..label_end];
    if label.contains(['\n', FILE_SEARCH_OPEN]) {
        return None;
    }
    let end = text.len() - rest.len() + label_end + FILE_SEARCH_CLOSE.len_utf8();
    Some(Marker {
        range: start..end,
        first: number,
        last: number,
        more: Vec::new(),
        fragment: None,
    })
}

struct Cursor<'t> {
    bytes: &'t [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.pos += 1;
        }
    }

    fn skip_spaces(&mut self) {
        self.skip_while(|b| b == b' ');
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        self.skip_while(|b| b.is_ascii_digit());
        let digits = &self.bytes[start..self.pos];
        if digits.is_empty() || digits.len() > MAX_DIGITS {
            return None;
        }
        std::str::from_utf8(digits).ok()?.parse().ok()
    }

    /// `-`, or the en dash `–` LLMs like to write in ranges.
    fn dash(&mut self) -> Option<()> {
        for dash in ["-", "\u{2013}"] {
            if self.bytes[self.pos..].starts_with(dash.as_bytes()) {
                self.pos += dash.len();
                return Some(());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<Vec<u32>> {
        spelled(text, Spellings::PLAIN)
    }

    fn spelled(text: &str, spellings: Spellings) -> Vec<Vec<u32>> {
        find_markers(text, spellings)
            .map(|m| m.numbers().collect())
            .collect()
    }

    const EVERY: Spellings = Spellings {
        plain: true,
        caret: true,
        prompt: true,
        file_search: true,
    };

    #[test]
    fn other_products_spellings_each_behind_its_switch() {
        let text = "a[^1^] b[citation:2] c[Source: 3, 4] d\u{3010}5\u{2020}source\u{3011} \
                    e\u{3010}6:0\u{2020}report.pdf\u{3011} f[^7, 8^]";
        assert_eq!(
            spelled(text, EVERY),
            vec![vec![1], vec![2], vec![3, 4], vec![5], vec![6], vec![7, 8]]
        );
        assert_eq!(spelled(text, Spellings::PLAIN), Vec::<Vec<u32>>::new());
        let only = |f: fn(&mut Spellings)| {
            let mut spellings = Spellings {
                plain: false,
                ..Spellings::PLAIN
            };
            f(&mut spellings);
            spelled(text, spellings)
        };
        assert_eq!(only(|s| s.caret = true), vec![vec![1], vec![7, 8]]);
        assert_eq!(only(|s| s.prompt = true), vec![vec![2], vec![3, 4]]);
        assert_eq!(only(|s| s.file_search = true), vec![vec![5], vec![6]]);
        let m = find_markers("x \u{3010}5\u{2020}source\u{3011}.", EVERY)
            .next()
            .unwrap();
        assert_eq!(m.range, 2..2 + "\u{3010}5\u{2020}source\u{3011}".len());
        // Plain markers still work with every spelling on.
        assert_eq!(spelled("[1] [2#p=1]", EVERY), vec![vec![1], vec![2]]);
    }

    #[test]
    fn near_misses_of_other_spellings() {
        for text in [
            "[^1]",
            "[^1^",
            "[^a^]",
            "[citation 2]",
            "[citations:2]",
            "[source:]",
            "[^1#p^]",
            "\u{3010}5\u{3011}",
            "\u{3010}\u{2020}source\u{3011}",
            "\u{3010}5\u{2020}source",
            "\u{3010}5\u{2020}a\nb\u{3011}",
            "\u{3010}x\u{2020}source\u{3011}",
        ] {
            assert_eq!(spelled(text, EVERY), Vec::<Vec<u32>>::new(), "{text:?}");
        }
    }

    #[test]
    fn every_marker_form() {
        assert_eq!(numbers("a [1] b"), vec![vec![1]]);
        assert_eq!(numbers("[2][3]"), vec![vec![2], vec![3]]);
        assert_eq!(numbers("[1, 3]"), vec![vec![1, 3]]);
        assert_eq!(numbers("[1,2,3]"), vec![vec![1, 2, 3]]);
        assert_eq!(numbers("[1-3]"), vec![vec![1, 2, 3]]);
        assert_eq!(numbers("[2\u{2013}4]"), vec![vec![2, 3, 4]]);
        let m = find_markers("see [1#page=3].", Spellings::PLAIN)
            .next()
            .unwrap();
        assert_eq!(
            (m.range.clone(), m.fragment.as_deref()),
            (4..14, Some("page=3"))
        );
    }

    #[test]
    fn things_that_are_not_markers() {
        for text in [
            "[]",
            "[a]",
            "[1a]",
            "[1,]",
            "[ 1]",
            "[^1]",
            "[1-]",
            "[3-1]",
            "[1-99]",
            "[1#]",
            "[1234567890]",
            "[1",
            "[1 2]",
            "[1, 2",
            "[-1]",
        ] {
            assert_eq!(numbers(text), Vec::<Vec<u32>>::new(), "{text}");
        }
    }

    #[test]
    fn text_of_only_markers() {
        assert_eq!(only_markers("[1]").len(), 1);
        assert_eq!(only_markers(" [1][2] [3, 4] ").len(), 3);
        assert!(only_markers("[1] note").is_empty());
        assert!(only_markers("").is_empty());
        assert!(only_markers("[a]").is_empty());
    }

    #[test]
    fn ranges_are_byte_offsets_in_non_ascii_text() {
        let text = "Überblick ✓ [12]";
        let m = find_markers(text, Spellings::PLAIN).next().unwrap();
        assert_eq!(&text[m.range.clone()], "[12]");
    }
}
