//! Text runs: the consecutive text events of a paragraph, merged.
//!
//! pulldown-cmark splits text wherever a `[`, `*` or `_` might have started
//! something, so `[12]` can arrive as `[`, `12]`. Markers and bare URLs are
//! recognized on the merged text; this module merges without copying when it
//! can (the pieces are adjacent slices of the input, the common case) and
//! maps positions in the merged text back to the input.

use std::ops::Range;

use pulldown_cmark::CowStr;

/// The pending text pieces of one run.
#[derive(Default)]
pub(crate) struct TextRun<'a> {
    pieces: Vec<(CowStr<'a>, Range<usize>)>,
    /// Start offset of each piece in the merged text (only when not verbatim).
    offsets: Vec<usize>,
    /// Whether every piece is the input's own bytes, back to back.
    verbatim: bool,
}

impl<'a> TextRun<'a> {
    pub(crate) fn push(&mut self, piece: CowStr<'a>, range: Range<usize>) {
        self.pieces.push((piece, range));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Drops a leading `)` (the close of a mended `([label](url))`).
    pub(crate) fn strip_leading_paren(&mut self) {
        if let Some((piece, range)) = self.pieces.first_mut() {
            if piece.starts_with(')') {
                *piece = slice(piece, 1..piece.len());
                range.start = (range.start + 1).min(range.end);
            }
        }
    }

    /// The merged text, borrowed from `markdown` whenever possible.
    pub(crate) fn merge(&mut self, markdown: &'a str) -> CowStr<'a> {
        self.offsets.clear();
        self.verbatim = self
            .pieces
            .windows(2)
            .all(|pair| pair[0].1.end == pair[1].1.start)
            && self
                .pieces
                .iter()
                .all(|(piece, range)| is_verbatim(piece, range, markdown));
        match (self.pieces.first(), self.pieces.last()) {
            (Some((first, _)), _) if self.pieces.len() == 1 => first.clone(),
            (Some((_, first)), Some((_, last))) if self.verbatim => markdown
                .get(first.start..last.end)
                .map_or_else(|| self.join(), CowStr::Borrowed),
            _ => self.join(),
        }
    }

    fn join(&mut self) -> CowStr<'a> {
        let mut joined = String::new();
        for (piece, _) in &self.pieces {
            self.offsets.push(joined.len());
            joined.push_str(piece);
        }
        CowStr::from(joined)
    }

    /// The input range of `text[range]` (text being what [`merge`] gave), and
    /// whether all of it was written verbatim (no escapes or entities).
    ///
    /// [`merge`]: TextRun::merge
    pub(crate) fn source_range(
        &self,
        markdown: &str,
        range: &Range<usize>,
    ) -> (Range<usize>, bool) {
        let Some((_, first)) = self.pieces.first() else {
            return (0..0, false);
        };
        if self.verbatim || self.pieces.len() == 1 {
            let verbatim = self.verbatim || is_verbatim(&self.pieces[0].0, first, markdown);
            if verbatim {
                return (first.start + range.start..first.start + range.end, true);
            }
            return (first.clone(), false);
        }
        // Pieces are sorted by offset: binary search keeps marker-dense
        // paragraphs linear.
        let first_piece = self
            .offsets
            .partition_point(|&o| o <= range.start)
            .saturating_sub(1);
        let mut verbatim = true;
        let mut start = None;
        let mut end = 0;
        for (i, (piece, src)) in self.pieces.iter().enumerate().skip(first_piece) {
            let offset = self.offsets.get(i).copied().unwrap_or(0);
            if offset >= range.end && start.is_some() {
                break;
            }
            let piece_is_verbatim = is_verbatim(piece, src, markdown);
            verbatim &= piece_is_verbatim;
            let map = |at: usize| {
                if piece_is_verbatim {
                    src.start + (at - offset)
                } else {
                    src.start
                }
            };
            start.get_or_insert_with(|| map(range.start.max(offset)));
            end = if piece_is_verbatim {
                map(range.end.min(offset + piece.len()))
            } else {
                src.end
            };
        }
        (start.unwrap_or(first.start)..end, verbatim)
    }

    pub(crate) fn clear(&mut self) {
        self.pieces.clear();
        self.offsets.clear();
    }
}

/// Whether `piece` is exactly `markdown[range]` (not decoded from an escape
/// or entity). Borrowed pieces are checked by address, in O(1).
fn is_verbatim(piece: &CowStr<'_>, range: &Range<usize>, markdown: &str) -> bool {
    match piece {
        CowStr::Borrowed(s) => {
            s.len() == range.len()
                && std::ptr::eq(s.as_ptr(), markdown.as_ptr().wrapping_add(range.start))
        }
        _ => markdown.get(range.clone()) == Some(piece.as_ref()),
    }
}

/// `text[range]`, still borrowed when `text` is.
pub(crate) fn slice<'a>(text: &CowStr<'a>, range: Range<usize>) -> CowStr<'a> {
    match text {
        CowStr::Borrowed(s) => s.get(range).map_or(CowStr::Borrowed(""), CowStr::Borrowed),
        other => CowStr::from(other.get(range).unwrap_or("").to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_verbatim_pieces_merge_without_copying() {
        let md = "see [12] here";
        let mut run = TextRun::default();
        run.push(CowStr::Borrowed(&md[..5]), 0..5);
        run.push(CowStr::Borrowed(&md[5..]), 5..md.len());
        let merged = run.merge(md);
        assert!(matches!(merged, CowStr::Borrowed(_)));
        assert_eq!(&*merged, md);
        assert_eq!(run.source_range(md, &(4..8)), (4..8, true));
    }

    #[test]
    fn escaped_pieces_map_back_and_are_not_verbatim() {
        let md = r"a \[1] b";
        let mut run = TextRun::default();
        run.push(CowStr::Borrowed(&md[..2]), 0..2);
        run.push(CowStr::Borrowed(&md[3..]), 3..md.len());
        let merged = run.merge(md);
        assert_eq!(&*merged, "a [1] b");
        let (range, verbatim) = run.source_range(md, &(2..5));
        assert_eq!((range, verbatim), (3..6, true));
        let entity = "x &amp; y";
        let mut run = TextRun::default();
        run.push(CowStr::Borrowed("x "), 0..2);
        run.push(CowStr::from("&".to_owned()), 2..7);
        run.push(CowStr::Borrowed(&entity[7..]), 7..entity.len());
        assert_eq!(&*run.merge(entity), "x & y");
        assert!(!run.source_range(entity, &(2..3)).1);
    }
}
