//! Streaming real documents nobody here wrote: the READMEs of the crates in
//! the local cargo registry (`scripts/collect-readmes.sh`; results in
//! `docs/corpus.md`).
//!
//! Every document is streamed with default options at 1-, 4- and 16-byte
//! chunks (cut on char boundaries) as a host painting after every token
//! would: [`Stream::push_deferred`], then the tail with
//! [`Stream::tail_into`], the patches applied with [`StreamedHtml`], then
//! [`Stream::finish`]. Reported:
//! - stream ≡ render: the applied HTML (and citations) equal [`render`]'s,
//!   at every chunk size; every document where not, with the first
//!   differing byte.
//! - the prefix rate: the share of pushes after which the visible text of
//!   the applied HTML followed by the tail (tags dropped, `&lt; &gt; &quot;
//!   &#39; &amp;` decoded, whitespace runs read as one space) is a prefix of
//!   the final visible text; over all pushes, per chunk size, by what the
//!   documents hold, the 10 lowest documents, and examples of what showed
//!   and later changed.
//! - at 4-byte chunks: the bytes handed to the host (every append, plus
//!   the whole tail after every push) over the final HTML's size, and the
//!   stream's time over one [`render`] (its median of [`RENDER_RUNS`]); the
//!   timed stream run does no prefix bookkeeping.
//!
//! A stream run that exceeds the budget is stopped and reported.
//!
//! Environment: `CITEMARK_CORPUS_DIR` (default `target/corpus/readmes`),
//! `CORPUS_BUDGET_S` (default 5: the budget of one stream run),
//! `CORPUS_FILTER=serde` (only documents whose name contains it).

use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use citemark::{render, Options, Step, Stream, StreamedHtml};

#[path = "support/chunks.rs"]
mod chunks;
/// (The whole-text version, which [`Visible`] is checked against.)
#[path = "support/machine.rs"]
mod machine;
#[path = "support/timed.rs"]
mod timed;
#[path = "support/typing_host.rs"]
mod typing_host;
use machine::cpu_model;
#[path = "../tests/common/visible.rs"]
mod visible;
use chunks::str_chunks;
use timed::{stream_painting_every_push, Timed};
use visible::visible;

const CHUNKS: [usize; 3] = [1, 4, 16];
/// The chunk size of the bytes-handed and time figures, and of the examples.
const MEASURED_CHUNK: usize = 4;
const RENDER_RUNS: usize = 9;
/// Timed stream runs of a document whose first run is quicker than [`QUICK`].
const STREAM_RUNS: usize = 5;
const QUICK: Duration = Duration::from_millis(100);
/// Examples of what showed and later changed, kept per document, of each
/// kind (in the applied HTML, in the tail).
const EXAMPLES: usize = 3;
const LOWEST: usize = 10;
const WORST: usize = 5;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::var_os("CITEMARK_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(root).join("target/corpus/readmes"));
    let budget = Duration::from_secs_f64(
        std::env::var("CORPUS_BUDGET_S")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5.0),
    );
    let filter = std::env::var("CORPUS_FILTER").unwrap_or_default();
    let documents = load(&dir, &filter);
    if documents.is_empty() {
        println!(
            "no documents in {}: collect them with scripts/collect-readmes.sh \
             (or make bench-corpus), or point CITEMARK_CORPUS_DIR at a folder of .md files",
            dir.display()
        );
        return;
    }
    let total: usize = documents.iter().map(|d| d.text.len()).sum();
    println!("citemark corpus bench: {}", dir.display());
    println!("CPU: {}", cpu_model());
    println!(
        "{} documents, {total} bytes; chunks {CHUNKS:?} bytes; budget {:.0} s per stream run",
        documents.len(),
        budget.as_secs_f64()
    );
    println!();
    println!(
        "{:32} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>4}  holds",
        "document", "bytes", "html", "1-byte", "4-byte", "16-byte", "handed", "time", "rew"
    );
    let options = Options::default();
    let mut results = Vec::new();
    for document in &documents {
        let result = measure(document, &options, budget);
        print_row(&result);
        results.push(result);
    }
    report(&results, budget);
}

struct Document {
    name: String,
    text: String,
}

fn load(dir: &Path, filter: &str) -> Vec<Document> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut documents: Vec<Document> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .filter_map(|path| {
            let name = path.file_stem()?.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).ok()?;
            name.contains(filter).then_some(Document { name, text })
        })
        .collect();
    documents.sort_by(|a, b| a.name.cmp(&b.name));
    documents
}

/// The text a reader sees, built as HTML arrives: tags dropped, the five
/// entities citemark writes decoded, whitespace runs read as one space
/// (leading and trailing whitespace dropped). Fed a whole HTML string, it
/// gives what `tests/streaming.rs`'s `visible` gives.
#[derive(Clone, Default)]
struct Visible {
    text: String,
    /// Whitespace after the last character of `text`.
    pending_space: bool,
    /// Whitespace before the first character of `text`.
    leading_space: bool,
    in_tag: bool,
    /// An entity being read, from its `&`.
    entity: String,
}

/// Where a [`Visible`] was: its text's length and its state.
#[derive(Clone)]
struct VisibleAt {
    len: usize,
    pending_space: bool,
    leading_space: bool,
    in_tag: bool,
    entity: String,
}

const ENTITIES: [(&str, char); 5] = [
    ("&lt;", '<'),
    ("&gt;", '>'),
    ("&quot;", '"'),
    ("&#39;", '\''),
    ("&amp;", '&'),
];

impl Visible {
    fn of(html: &str) -> Self {
        let mut visible = Self::default();
        visible.push_str(html);
        visible.flush();
        visible
    }

    fn push_str(&mut self, html: &str) {
        for c in html.chars() {
            self.push(c);
        }
    }

    fn at(&self) -> VisibleAt {
        VisibleAt {
            len: self.text.len(),
            pending_space: self.pending_space,
            leading_space: self.leading_space,
            in_tag: self.in_tag,
            entity: self.entity.clone(),
        }
    }

    fn restore(&mut self, at: &VisibleAt) {
        self.text.truncate(at.len);
        self.pending_space = at.pending_space;
        self.leading_space = at.leading_space;
        self.in_tag = at.in_tag;
        self.entity.clone_from(&at.entity);
    }

    fn push(&mut self, c: char) {
        if self.in_tag {
            self.in_tag = c != '>';
            return;
        }
        if c == '<' {
            self.in_tag = true;
            return;
        }
        if self.entity.is_empty() {
            if c == '&' {
                self.entity.push(c);
            } else {
                self.emit(c);
            }
            return;
        }
        self.entity.push(c);
        if let Some(&(_, decoded)) = ENTITIES.iter().find(|(name, _)| *name == self.entity) {
            self.entity.clear();
            self.emit(decoded);
        } else if !ENTITIES
            .iter()
            .any(|(name, _)| name.starts_with(&self.entity))
        {
            // Not an entity: its characters are text, but the last may
            // start one.
            let entity = std::mem::take(&mut self.entity);
            let mut chars = entity.chars();
            let last = chars.next_back();
            for c in chars {
                self.emit(c);
            }
            if let Some(last) = last {
                self.push(last);
            }
        }
    }

    /// An entity left unfinished is text.
    fn flush(&mut self) {
        let entity = std::mem::take(&mut self.entity);
        for c in entity.chars() {
            self.emit(c);
        }
    }

    fn emit(&mut self, c: char) {
        if c.is_whitespace() {
            self.pending_space = true;
            return;
        }
        if self.text.is_empty() {
            self.leading_space |= self.pending_space;
        } else if self.pending_space {
            self.text.push(' ');
        }
        self.pending_space = false;
        self.text.push(c);
    }
}

/// The visible text of the applied HTML, kept incrementally (appends,
/// rewinds to the mark, emptied elements), with how much of it agrees with
/// the final text.
struct Seen<'a> {
    last: &'a str,
    applied: Visible,
    /// `applied` at the mark.
    mark: Visible,
    /// Where `applied` was right after each open element's open step,
    /// innermost last; and those at the mark.
    opened: Vec<VisibleAt>,
    opened_at_mark: Vec<VisibleAt>,
    /// The length of the common prefix of `applied.text` and `last`.
    matched: usize,
}

impl<'a> Seen<'a> {
    fn new(last: &'a str) -> Self {
        Self {
            last,
            applied: Visible::default(),
            mark: Visible::default(),
            opened: Vec::new(),
            opened_at_mark: Vec::new(),
            matched: 0,
        }
    }

    fn apply(&mut self, patch: &citemark::Patch) {
        if patch.rewind {
            self.applied = self.mark.clone();
            self.opened.clone_from(&self.opened_at_mark);
        }
        if patch.mark {
            self.mark = self.applied.clone();
            self.opened_at_mark.clone_from(&self.opened);
        }
        if let (Some(_), Some(at)) = (patch.empty, self.opened.last()) {
            self.applied.restore(at);
        }
        self.matched = self.matched.min(self.applied.text.len());
        let before = self.applied.text.len();
        let mut at = 0;
        for step in &patch.steps {
            let (Step::Open(len) | Step::Html(len) | Step::Close(len)) = *step else {
                unreachable!("no other steps")
            };
            self.applied.push_str(&patch.append[at..at + len]);
            at += len;
            match step {
                Step::Open(_) => self.opened.push(self.applied.at()),
                Step::Close(_) => drop(self.opened.pop()),
                _ => {}
            }
        }
        self.applied.push_str(&patch.append[at..]);
        if self.matched == before {
            let grown = &self.applied.text.as_bytes()[before..];
            let wanted = &self.last.as_bytes()[before.min(self.last.len())..];
            self.matched += common_prefix(grown, wanted);
        }
    }

    /// What a reader sees now (the applied HTML, then `tail`), if it is not
    /// a prefix of the final text: the seen text and where it departs.
    fn departure(&self, tail: &str) -> Option<(String, usize)> {
        let tail = Visible::of(tail);
        let applied = &self.applied;
        let separator = if !applied.text.is_empty()
            && !tail.text.is_empty()
            && (applied.pending_space || tail.leading_space)
        {
            " "
        } else {
            ""
        };
        let seen = || format!("{}{separator}{}", applied.text, tail.text);
        if self.matched < applied.text.len() {
            return Some((seen(), self.matched));
        }
        let rest = &self.last.as_bytes()[applied.text.len()..];
        let shown = [separator.as_bytes(), tail.text.as_bytes()].concat();
        let agree = common_prefix(&shown, rest);
        (agree < shown.len()).then(|| (seen(), applied.text.len() + agree))
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Something a reader saw that later changed.
struct Example {
    /// It departs in the applied HTML (else in the tail).
    committed: bool,
    /// Bytes of the document pushed when it showed.
    pushed: usize,
    /// The last line of the document pushed so far.
    line: String,
    seen: String,
    wanted: String,
    /// Where it departs from the final text (a byte offset in it).
    at: usize,
}

/// One chunk size's run with prefix bookkeeping.
struct Prefixed {
    pushes: usize,
    good: usize,
    /// Pushes after which what departs from the final text is in the
    /// applied HTML (committed, awaiting a rewind), not in the tail.
    committed_misses: usize,
    /// Bytes appended (rewound ones included) and bytes of tail handed.
    appended: usize,
    tails: usize,
    /// The longest tail: its length, the bytes pushed then, and the line
    /// being typed.
    longest_tail: (usize, usize, String),
    rewinds: usize,
    /// The first differing byte of the applied HTML against the render's
    /// (its length when one is a prefix of the other), or `None` if equal.
    html_differs: Option<usize>,
    citations_differ: bool,
    examples: Vec<Example>,
}

enum Outcome<T> {
    Done(T),
    Stopped { at: usize, after: Duration },
}

fn stream_prefixed(
    text: &str,
    size: usize,
    options: &Options,
    once: &citemark::Rendered,
    last: &str,
    budget: Duration,
) -> Outcome<Prefixed> {
    let start = Instant::now();
    let mut stream = Stream::new(options.clone());
    let mut html = StreamedHtml::default();
    let mut seen = Seen::new(last);
    let mut tail = String::new();
    let (mut pushes, mut good, mut rewinds, mut pushed) = (0, 0, 0, 0);
    let (mut committed_misses, mut appended, mut tails) = (0, 0, 0);
    let mut longest_tail = (0, 0, String::new());
    let mut examples: Vec<Example> = Vec::new();
    for piece in str_chunks(text, size) {
        let patch = stream.push_deferred(piece);
        stream.tail_into(&mut tail);
        html.apply(&patch);
        seen.apply(&patch);
        rewinds += usize::from(patch.rewind);
        pushed += piece.len();
        pushes += 1;
        appended += patch.append.len();
        tails += tail.len();
        if tail.len() > longest_tail.0 {
            longest_tail = (tail.len(), pushed, last_line(&text[..pushed]));
        }
        match seen.departure(&tail) {
            None => good += 1,
            Some((shown, at)) => {
                let committed = at < seen.applied.text.len();
                committed_misses += usize::from(committed);
                let kept = examples.iter().filter(|e| e.committed == committed);
                let far = kept.clone().all(|example| example.at.abs_diff(at) > 200);
                if size == MEASURED_CHUNK && kept.count() < EXAMPLES && far {
                    examples.push(Example {
                        committed,
                        pushed,
                        line: last_line(&text[..pushed]),
                        seen: excerpt(&shown, at),
                        wanted: excerpt(last, at),
                        at,
                    });
                }
            }
        }
        if start.elapsed() > budget {
            return Outcome::Stopped {
                at: pushed,
                after: start.elapsed(),
            };
        }
    }
    let end = stream.finish();
    html.apply(&end);
    rewinds += usize::from(end.rewind);
    appended += end.append.len();
    let html_differs = (html.html() != once.html)
        .then(|| common_prefix(html.html().as_bytes(), once.html.as_bytes()));
    Outcome::Done(Prefixed {
        pushes,
        good,
        committed_misses,
        appended,
        tails,
        longest_tail,
        rewinds,
        html_differs,
        citations_differ: html.citations() != once.citations.occurrences.as_slice(),
        examples,
    })
}

/// The last line of `text` that is not empty.
fn last_line(text: &str) -> String {
    text.trim_end_matches('\n')
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// About 40 bytes before `at` and 60 after, on char boundaries, one line.
fn excerpt(text: &str, at: usize) -> String {
    let mut from = at.saturating_sub(40).min(text.len());
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (at + 60).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    text[from..to].replace('\n', " ")
}

/// The timed run: no bookkeeping but what a host does. Returns the time
/// and the bytes handed (appends, plus the tail after every push).
fn stream_timed(text: &str, options: &Options, budget: Duration) -> Outcome<(Duration, usize)> {
    match stream_painting_every_push(text, options, MEASURED_CHUNK, budget) {
        Timed::Done { time, handed, html } => {
            // (The assembled HTML is what a host would show: kept.)
            black_box(html);
            Outcome::Done((time, handed))
        }
        Timed::Stopped { at, after } => Outcome::Stopped { at, after },
    }
}

/// What a document holds, among the shapes that decide late or stream
/// with care.
#[derive(Clone, Copy, Default)]
struct Holds {
    footnotes: bool,
    definitions: bool,
    html_blocks: bool,
    nested_lists: bool,
}

impl Holds {
    fn of(text: &str) -> Self {
        let mut holds = Self {
            footnotes: text.contains("[^"),
            ..Self::default()
        };
        let mut fence: Option<&str> = None;
        for line in text.lines() {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            if let Some(open) = fence {
                if trimmed.starts_with(open) {
                    fence = None;
                }
                continue;
            }
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = Some(&trimmed[..3]);
                continue;
            }
            if indent > 3 {
                if list_marker(trimmed) {
                    holds.nested_lists = true;
                }
                continue;
            }
            if trimmed.starts_with('[') && !trimmed.starts_with("[^") {
                if let Some(end) = trimmed.find("]:") {
                    holds.definitions |= !trimmed[1..end].contains(']');
                }
            }
            let mut chars = trimmed.chars();
            if chars.next() == Some('<')
                && chars
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!')
            {
                holds.html_blocks = true;
            }
            if indent >= 2 && list_marker(trimmed) {
                holds.nested_lists = true;
            }
        }
        holds
    }

    fn label(self) -> String {
        let mut label = Vec::new();
        for (held, name) in [
            (self.footnotes, "footnotes"),
            (self.definitions, "definitions"),
            (self.html_blocks, "html"),
            (self.nested_lists, "nested-lists"),
        ] {
            if held {
                label.push(name);
            }
        }
        label.join(",")
    }
}

fn list_marker(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = &line[digits..];
    let marker = if digits == 0 {
        rest.strip_prefix(['-', '*', '+'])
    } else {
        rest.strip_prefix(['.', ')'])
    };
    marker.is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
}

/// One document, measured.
struct Measured {
    name: String,
    bytes: usize,
    html: usize,
    holds: Holds,
    /// Per chunk size in [`CHUNKS`].
    prefixed: Vec<Outcome<Prefixed>>,
    /// Stream time ÷ one-shot time and bytes handed at [`MEASURED_CHUNK`].
    timed: Outcome<(Duration, usize)>,
    once: Duration,
}

impl Measured {
    fn rate(&self, slot: usize) -> Option<f64> {
        match &self.prefixed[slot] {
            Outcome::Done(p) if p.pushes > 0 => Some(p.good as f64 / p.pushes as f64),
            _ => None,
        }
    }

    /// Good and total pushes over all chunk sizes (`None` if a run stopped).
    fn overall(&self) -> Option<(usize, usize)> {
        self.prefixed
            .iter()
            .try_fold((0, 0), |(g, t), outcome| match outcome {
                Outcome::Done(p) => Some((g + p.good, t + p.pushes)),
                Outcome::Stopped { .. } => None,
            })
    }

    fn handed_ratio(&self) -> Option<f64> {
        match self.timed {
            Outcome::Done((_, handed)) if self.html > 0 => Some(handed as f64 / self.html as f64),
            _ => None,
        }
    }

    fn time_ratio(&self) -> Option<f64> {
        match self.timed {
            Outcome::Done((time, _)) if !self.once.is_zero() => {
                Some(time.as_secs_f64() / self.once.as_secs_f64())
            }
            _ => None,
        }
    }

    fn measured(&self) -> Option<&Prefixed> {
        let slot = CHUNKS.iter().position(|&c| c == MEASURED_CHUNK)?;
        match &self.prefixed[slot] {
            Outcome::Done(p) => Some(p),
            Outcome::Stopped { .. } => None,
        }
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn measure(document: &Document, options: &Options, budget: Duration) -> Measured {
    let text = &document.text;
    let mut onces = Vec::new();
    let mut once = None;
    for _ in 0..RENDER_RUNS {
        let start = Instant::now();
        let rendered = black_box(render(black_box(text), options));
        onces.push(start.elapsed());
        once = Some(rendered);
    }
    let once = once.expect("RENDER_RUNS > 0");
    let last = Visible::of(&once.html).text;
    assert_eq!(last, visible(&once.html), "{}: Visible::of", document.name);
    let prefixed = CHUNKS
        .iter()
        .map(|&size| stream_prefixed(text, size, options, &once, &last, budget))
        .collect();
    let mut timed = stream_timed(text, options, budget);
    if let Outcome::Done((first, handed)) = timed {
        if first < QUICK {
            let mut times = vec![first];
            for _ in 1..STREAM_RUNS {
                if let Outcome::Done((time, _)) = stream_timed(text, options, budget) {
                    times.push(time);
                }
            }
            timed = Outcome::Done((median(times), handed));
        }
    }
    Measured {
        name: document.name.clone(),
        bytes: text.len(),
        html: once.html.len(),
        holds: Holds::of(text),
        prefixed,
        timed,
        once: median(onces),
    }
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "stopped".to_owned(), |v| format!("{:.2}%", 100.0 * v))
}

fn times(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}x"))
}

fn print_row(result: &Measured) {
    let rewinds = result.measured().map_or(0, |p| p.rewinds);
    println!(
        "{:32} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>4}  {}",
        result.name,
        result.bytes,
        result.html,
        percent(result.rate(0)),
        percent(result.rate(1)),
        percent(result.rate(2)),
        times(result.handed_ratio()),
        times(result.time_ratio()),
        rewinds,
        result.holds.label()
    );
    let _ = std::io::stdout().flush();
}

/// The nearest-rank `q` quantile of sorted `values`.
fn quantile(values: &[f64], q: f64) -> f64 {
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// A label and which documents it takes.
type Group = (&'static str, fn(&Holds) -> bool);

fn report(results: &[Measured], budget: Duration) {
    println!();
    println!("## stream = render");
    let mut failures = 0;
    for result in results {
        for (slot, outcome) in result.prefixed.iter().enumerate() {
            if let Outcome::Done(p) = outcome {
                if let Some(at) = p.html_differs {
                    failures += 1;
                    println!(
                        "FAIL {} at {}-byte chunks: HTML differs from render at byte {at}",
                        result.name, CHUNKS[slot]
                    );
                }
                if p.citations_differ {
                    failures += 1;
                    println!(
                        "FAIL {} at {}-byte chunks: citations differ from render's",
                        result.name, CHUNKS[slot]
                    );
                }
            }
        }
    }
    let runs: usize = results
        .iter()
        .flat_map(|r| &r.prefixed)
        .filter(|o| matches!(o, Outcome::Done(_)))
        .count();
    if failures == 0 {
        println!("all {runs} completed stream runs equal render (HTML and citations)");
    } else {
        println!("{failures} failures over {runs} completed stream runs");
    }

    println!();
    println!("## budget ({:.0} s per stream run)", budget.as_secs_f64());
    let mut stopped = 0;
    for result in results {
        let runs = result
            .prefixed
            .iter()
            .zip(CHUNKS.iter().map(|c| format!("{c}-byte")))
            .filter_map(|(outcome, label)| match outcome {
                Outcome::Stopped { at, after } => Some((label, *at, *after)),
                Outcome::Done(_) => None,
            })
            .chain(match result.timed {
                Outcome::Stopped { at, after } => Some(("timed 4-byte".to_owned(), at, after)),
                Outcome::Done(_) => None,
            });
        for (label, at, after) in runs {
            stopped += 1;
            println!(
                "STOPPED {} ({} bytes) {label}: at byte {at} after {:.1} s",
                result.name,
                result.bytes,
                after.as_secs_f64()
            );
        }
    }
    if stopped == 0 {
        println!("no stream run hit the budget");
    }

    println!();
    println!("## prefix rate (pushes after which the reader sees a prefix of the final text)");
    let mut line = format!("{:40}", "");
    for size in CHUNKS {
        line.push_str(&format!(" {:>20}", format!("{size}-byte")));
    }
    println!("{line}");
    let groups: [Group; 6] = [
        ("all documents", |_| true),
        ("holding footnotes", |h| h.footnotes),
        ("holding reference definitions", |h| h.definitions),
        ("holding raw HTML blocks", |h| h.html_blocks),
        ("holding nested lists", |h| h.nested_lists),
        ("holding none of these", |h| {
            !(h.footnotes || h.definitions || h.html_blocks || h.nested_lists)
        }),
    ];
    for (label, keep) in groups {
        let chosen: Vec<&Measured> = results.iter().filter(|r| keep(&r.holds)).collect();
        let mut line = format!("{:40}", format!("{label} ({})", chosen.len()));
        for slot in 0..CHUNKS.len() {
            let (good, total) = chosen
                .iter()
                .filter_map(|r| match &r.prefixed[slot] {
                    Outcome::Done(p) => Some((p.good, p.pushes)),
                    Outcome::Stopped { .. } => None,
                })
                .fold((0, 0), |(g, t), (good, total)| (g + good, t + total));
            line.push_str(&format!(
                " {:>20}",
                format!(
                    "{:.2}% of {total}",
                    100.0 * good as f64 / total.max(1) as f64
                )
            ));
        }
        println!("{line}");
    }
    let mut line = format!("{:40}", "misses in committed HTML (rest: tail)");
    for slot in 0..CHUNKS.len() {
        let (committed, misses) = results
            .iter()
            .filter_map(|r| match &r.prefixed[slot] {
                Outcome::Done(p) => Some((p.committed_misses, p.pushes - p.good)),
                Outcome::Stopped { .. } => None,
            })
            .fold((0, 0), |(c, m), (committed, misses)| {
                (c + committed, m + misses)
            });
        line.push_str(&format!(" {:>20}", format!("{committed} of {misses}")));
    }
    println!("{line}");
    let perfect = results
        .iter()
        .filter(|r| r.overall().is_some_and(|(g, t)| g == t))
        .count();
    println!(
        "documents at 100% at every chunk size: {perfect} of {}",
        results.len()
    );

    println!();
    println!("## the {LOWEST} documents with the lowest prefix rate (all chunk sizes together)");
    let mut ranked: Vec<(&Measured, f64)> = results
        .iter()
        .filter_map(|r| r.overall().map(|(g, t)| (r, g as f64 / t.max(1) as f64)))
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    println!(
        "{:32} {:>7} {:>8} {:>8} {:>8} {:>8} {:>4}  holds",
        "document", "bytes", "all", "1-byte", "4-byte", "16-byte", "rew"
    );
    for (result, rate) in ranked.iter().take(LOWEST) {
        println!(
            "{:32} {:>7} {:>8} {:>8} {:>8} {:>8} {:>4}  {}",
            result.name,
            result.bytes,
            percent(Some(*rate)),
            percent(result.rate(0)),
            percent(result.rate(1)),
            percent(result.rate(2)),
            result.measured().map_or(0, |p| p.rewinds),
            result.holds.label()
        );
    }
    println!();
    println!(
        "## what showed and later changed ({MEASURED_CHUNK}-byte chunks; the lowest documents, \
         then the {LOWEST} with the most misses in the tail)"
    );
    let mut by_tail: Vec<&Measured> = results.iter().collect();
    by_tail.sort_by_key(|r| {
        std::cmp::Reverse(
            r.measured()
                .map_or(0, |p| p.pushes - p.good - p.committed_misses),
        )
    });
    for result in by_tail.iter().take(LOWEST) {
        if let Some(p) = result.measured() {
            println!(
                "{:32} {:>5} tail misses of {:>5} pushes  {}",
                result.name,
                p.pushes - p.good - p.committed_misses,
                p.pushes,
                result.holds.label()
            );
        }
    }
    let shown = ranked
        .iter()
        .take(LOWEST)
        .map(|(r, _)| (*r, true))
        .chain(by_tail.iter().take(LOWEST).map(|r| (*r, false)));
    for (result, committed) in shown {
        let Some(p) = result.measured() else { continue };
        for example in p.examples.iter().filter(|e| e.committed == committed) {
            println!(
                "{} [{}] after {} of {} bytes, typing: {:?}\n    seen:  …{}\n    final: …{}",
                result.name,
                if committed { "committed" } else { "tail" },
                example.pushed,
                result.bytes,
                shorten(&example.line, 100),
                example.seen,
                example.wanted
            );
        }
    }

    println!();
    println!("## at {MEASURED_CHUNK}-byte chunks");
    let mut handed: Vec<(&Measured, f64)> = results
        .iter()
        .filter_map(|r| r.handed_ratio().map(|v| (r, v)))
        .collect();
    handed.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut time: Vec<f64> = results.iter().filter_map(Measured::time_ratio).collect();
    time.sort_by(f64::total_cmp);
    let values: Vec<f64> = handed.iter().map(|(_, v)| *v).collect();
    println!(
        "{:28} {:>8} {:>8} {:>8}  (of {} documents)",
        "",
        "median",
        "p90",
        "max",
        values.len()
    );
    for (label, values) in [
        ("bytes handed / final HTML", &values),
        ("stream time / one-shot", &time),
    ] {
        if values.is_empty() {
            continue;
        }
        println!(
            "{label:28} {:>8} {:>8} {:>8}",
            times(Some(quantile(values, 0.5))),
            times(Some(quantile(values, 0.9))),
            times(values.last().copied())
        );
    }
    println!();
    println!("the {WORST} documents handing the most bytes per byte of HTML:");
    println!(
        "{:32} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>4}  holds",
        "document", "bytes", "html", "handed", "appends", "tails", "time", "rew"
    );
    for (result, ratio) in handed.iter().rev().take(WORST) {
        let Some(p) = result.measured() else { continue };
        let html = result.html.max(1) as f64;
        println!(
            "{:32} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>4}  {}",
            result.name,
            result.bytes,
            result.html,
            times(Some(*ratio)),
            times(Some(p.appended as f64 / html)),
            times(Some(p.tails as f64 / html)),
            times(result.time_ratio()),
            p.rewinds,
            result.holds.label()
        );
    }
    for (result, _) in handed.iter().rev().take(WORST) {
        let Some(p) = result.measured() else { continue };
        let (len, pushed, line) = &p.longest_tail;
        println!(
            "{}: longest tail {len} bytes, after {pushed} of {} bytes, typing: {:?}",
            result.name,
            result.bytes,
            shorten(line, 100)
        );
    }
}

fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
