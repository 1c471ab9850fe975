//! The tail's budget: what keeps a stream linear whatever the text.
//!
//! The tail renders again, at a push, the open text it could not keep from
//! the last one: mostly a few words, but a whole line when nothing on it
//! settles (4 KiB of `*a_ `, every `*` an opener that may still close) or
//! a whole block when its text may still change it. Pushed a byte at a
//! time, such a line costs its length at every push: its square in all.
//!
//! So the tail earns [`CREDIT_PER_BYTE`] bytes of rendering for each byte
//! pushed (and [`CREDIT_AT_START`] once), and spends, at each rendering,
//! the bytes it rendered, and the unsettled text it read again past a few
//! words ([`reread_cost`]): **it renders only while the credit covers what
//! its last rendering cost**; else the tail is the last one again, not
//! rendered (the host shows what it showed), until the text pushed since
//! pays for it. Every rendering starts with the credit at or above zero, so
//! it never falls below minus one rendering: over a message the tail
//! renders at most `CREDIT_AT_START + CREDIT_PER_BYTE × its length` bytes,
//! plus its costliest rendering. Linear, however the text is shaped or
//! cut, and with no look at the text.
//!
//! Real answers do not wait: their tails render about a byte for each
//! byte pushed, so the credit grows (docs/streaming.md, "The tail's
//! budget", counts the few real documents that do). What is appended is
//! never held: commits, and the final render at
//! [`Stream::finish`](super::Stream::finish), are outside the budget. A
//! patch that [ends the tail](super::Patch::ends_tail) leaves an empty
//! last tail, of no cost: the next renders unless the tail is in debt.

/// Bytes of rendering the tail earns for each byte pushed: thirty times
/// what the shapes of `benches/shapes.rs` spend, and enough that none of
/// 243 crate READMEs pushed in 4-byte chunks waits (9 do, a byte at a
/// time).
pub(super) const CREDIT_PER_BYTE: usize = 32;

/// Bytes of unsettled text a rendering may read again at no cost: the few
/// words since a line's last settled one, in real text (see
/// [`reread_cost`]).
pub(super) const REREAD_FREE: usize = 128;

/// What a rendering that read `reread` bytes of unsettled text again
/// costs, besides the bytes it rendered: each byte past
/// [`REREAD_FREE`] as a byte rendered. The preview and the tail's checks
/// read that text whole at every rendering, even one that renders little
/// or nothing new (a URL being typed holds its whole line back), so a
/// line on which nothing settles costs its length at each rendering;
/// real text settles word by word and reads a few words again.
pub(super) fn reread_cost(reread: usize) -> usize {
    reread.saturating_sub(REREAD_FREE)
}

/// Bytes of rendering the tail may spend before it has earned any: a long
/// first paragraph typed byte by byte renders whole at every push.
pub(super) const CREDIT_AT_START: usize = 64 * 1024;

/// The tail's credit, and the tail it may show again.
#[derive(Debug, Clone)]
pub(super) struct TailBudget {
    /// Bytes of rendering the tail may still spend: below zero after a
    /// rendering that cost more than there was.
    credit: i64,
    /// The last tail rendered (empty once a patch ended it), and what it
    /// cost.
    last: String,
    last_cost: usize,
    /// Bytes rendered in all, for the tests.
    #[cfg(test)]
    spent: usize,
}

impl Default for TailBudget {
    fn default() -> Self {
        TailBudget {
            credit: bytes(CREDIT_AT_START),
            last: String::new(),
            last_cost: 0,
            #[cfg(test)]
            spent: 0,
        }
    }
}

/// `n` bytes as credit.
fn bytes(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl TailBudget {
    /// `pushed` bytes came.
    pub(super) fn earn(&mut self, pushed: usize) {
        let earned = bytes(pushed).saturating_mul(bytes(CREDIT_PER_BYTE));
        self.credit = self.credit.saturating_add(earned);
    }

    /// The tail to show again, when rendering the next must wait.
    pub(super) fn waiting(&self) -> Option<&str> {
        (self.credit < bytes(self.last_cost)).then_some(self.last.as_str())
    }

    /// `tail` was rendered, at a cost of `cost` bytes.
    pub(super) fn spend(&mut self, cost: usize, tail: &str) {
        self.credit = self.credit.saturating_sub(bytes(cost));
        self.last.clear();
        self.last.push_str(tail);
        self.last_cost = cost;
        #[cfg(test)]
        {
            self.spent += cost;
        }
    }

    /// A budget that never waits, for the tests of what the tail shows
    /// when it renders.
    #[cfg(test)]
    pub(super) fn unlimited() -> Self {
        TailBudget {
            credit: i64::MAX,
            ..TailBudget::default()
        }
    }

    /// Bytes rendered in all.
    #[cfg(test)]
    pub(super) fn spent(&self) -> usize {
        self.spent
    }

    /// A patch ended the tail: the last one no longer shows what the open
    /// text is.
    pub(super) fn end_tail(&mut self) {
        self.last.clear();
        self.last_cost = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{Stream, TailChange, Typing};
    use crate::{render, Options};

    /// Finding 3 (docs/fuzzing.md): a line on which no word settles, every
    /// `*` an opener that may still close, typed a byte at a time.
    #[test]
    fn a_line_that_never_settles_renders_within_the_budget() {
        let message = "*a_ ".repeat(2048);
        let mut stream = Stream::new(Options::default());
        let mut appended = String::new();
        let (mut waited, mut vouched_while_waiting) = (0, 0);
        for byte in message.as_bytes().chunks(1) {
            let text = std::str::from_utf8(byte).expect("ASCII");
            appended.push_str(&stream.push_deferred(text).append);
            let waits = stream.budget.waiting().is_some();
            let change = stream.tail_change();
            if waits {
                waited += 1;
                assert_eq!(
                    change,
                    TailChange::Same,
                    "a waiting tail shows what it showed"
                );
                vouched_while_waiting += usize::from(stream.typing() != Typing::Pushed);
            }
        }
        appended.push_str(&stream.finish().append);
        assert_eq!(appended, render(&message, &Options::default()).html);
        // Rendered whole at every push, the line would cost 2^25 bytes.
        let bound = CREDIT_AT_START + CREDIT_PER_BYTE * message.len() + message.len();
        assert!(
            stream.budget.spent <= bound,
            "{} > {bound}",
            stream.budget.spent
        );
        assert!(waited > 0, "the budget never held the tail");
        assert_eq!(
            vouched_while_waiting, 0,
            "typing vouched for on a waiting tail"
        );
    }

    /// Finding 3's second kind (docs/fuzzing.md): a URL being typed holds
    /// back its line whole, `*`s included, so the tail renders nothing new,
    /// yet each rendering reads the line again. What it reads again costs
    /// the budget too: the tail waits, and the line is not read at every
    /// push.
    #[test]
    fn text_read_again_costs_the_budget() {
        let message = ["https://test.com?", &"*".repeat(2000)].concat();
        let mut stream = Stream::new(Options::default());
        let mut appended = String::new();
        let mut waited = 0;
        for byte in message.as_bytes().chunks(1) {
            let text = std::str::from_utf8(byte).expect("ASCII");
            appended.push_str(&stream.push_deferred(text).append);
            waited += usize::from(stream.budget.waiting().is_some());
            stream.tail_change();
        }
        appended.push_str(&stream.finish().append);
        assert_eq!(appended, render(&message, &Options::default()).html);
        assert!(waited > message.len() / 2, "waited at {waited} pushes");
    }

    /// The test samples, real answers, are far from the budget, even a
    /// byte at a time.
    #[test]
    fn real_answers_never_wait() {
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/samples");
        let mut read = 0;
        for entry in std::fs::read_dir(&samples).expect("tests/samples") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_none_or(|ext| ext != "md") {
                continue;
            }
            let message = std::fs::read_to_string(&path).expect("a sample");
            let mut stream = Stream::new(Options::default());
            for c in message.chars() {
                stream.push_deferred(c.encode_utf8(&mut [0; 4]));
                assert!(stream.budget.waiting().is_none(), "{}", path.display());
                stream.tail_change();
            }
            read += 1;
        }
        assert!(read > 0, "no samples in {}", samples.display());
    }

    #[test]
    fn a_costly_tail_waits_until_the_text_pushed_pays_for_it() {
        let mut budget = TailBudget {
            credit: 0,
            ..TailBudget::default()
        };
        budget.spend(1024, "<p>a</p>");
        assert_eq!(budget.waiting(), Some("<p>a</p>"), "in debt");
        budget.earn(2 * 1024 / CREDIT_PER_BYTE - 1);
        assert_eq!(
            budget.waiting(),
            Some("<p>a</p>"),
            "the debt paid, not the next"
        );
        budget.earn(1);
        assert_eq!(budget.waiting(), None);
    }

    #[test]
    fn an_ended_tail_waits_empty_while_in_debt() {
        let mut budget = TailBudget {
            credit: 0,
            ..TailBudget::default()
        };
        budget.spend(1024, "<p>a</p>");
        budget.end_tail();
        assert_eq!(
            budget.waiting(),
            Some(""),
            "what was shown went into the append"
        );
        budget.earn(1024 / CREDIT_PER_BYTE);
        assert_eq!(budget.waiting(), None);
    }

    #[test]
    fn the_credit_starts_with_an_allowance() {
        let mut budget = TailBudget::default();
        budget.spend(CREDIT_AT_START / 2, "<p>a</p>");
        assert_eq!(budget.waiting(), None, "half of it left");
        budget.spend(CREDIT_AT_START / 2 + 1, "<p>a</p>");
        assert_eq!(budget.waiting(), Some("<p>a</p>"), "all spent");
    }
}
