//! Streaming by shape: does streaming stay linear on the shapes LLM answers
//! have (one long code block, table, list, quote, `<details>`, footnotes
//! and references defined at the end, bracketed prose)?
//!
//! Each shape (`benches/support/shapes.rs`) at each size is streamed as a
//! host painting after every token would: [`Stream::push_deferred`] in
//! 4-byte chunks (cut on char boundaries), the tail after every push with
//! [`Stream::tail_into`] into one reused buffer, then [`Stream::finish`].
//! Reported per shape and size:
//! - handed ÷ HTML: the bytes handed to the host (every append, plus the
//!   whole tail after every push, since the host replaces it) over the
//!   final HTML's size. Linear streaming keeps it flat as the size grows.
//! - stream ÷ one-shot: the stream's wall time over one [`render`] of the
//!   whole text (median of interleaved runs; one run when a stream takes
//!   over a second).
//! - whether the patches, applied as [`StreamedHtml`] does (rewinds
//!   included), give the one-shot HTML (a `FAIL` line if not).
//!
//! A run that exceeds the time budget is stopped and reported as such.
//! Then the same for one paragraph being typed at 1 to 8 KiB, and a floor
//! probe: the least any stream handing a tail after every push does on a
//! long code block (see [`code_floor`]).
//!
//! Environment: `SHAPES=table,details` selects shapes, `SIZES=16,256` the
//! sizes in KiB, `SHAPES_BUDGET_S=20` the budget of one stream run;
//! `TAIL=changes` hands the host the tail's change after every push
//! (`Stream::tail_change`) instead of the whole tail.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use citemark::{render, Options};
use pulldown_cmark_escape::escape_html_body_text;

#[path = "support/chunks.rs"]
mod chunks;
#[path = "support/timed.rs"]
mod timed;
#[path = "support/typing_host.rs"]
mod typing_host;
use timed::{stream_painting_every_push, Timed};

#[path = "support/machine.rs"]
mod machine;
#[path = "support/shapes.rs"]
mod shapes;
use machine::cpu_model;

const CHUNK: usize = 4;
/// Interleaved runs of a stream that takes under [`SLOW`].
const RUNS: usize = 5;
const SLOW: Duration = Duration::from_secs(1);
const PARAGRAPH_SIZES: &[usize] = &[1, 2, 4, 8];

/// One shape at one size, measured.
struct Row {
    shape: String,
    kib: usize,
    input: usize,
    html: usize,
    /// The one-shot render's median time.
    once: Duration,
    outcome: Outcome,
}

enum Outcome {
    Measured {
        handed: usize,
        stream: Duration,
        once: Duration,
        runs: usize,
        same: bool,
    },
    Stopped {
        at: usize,
        after: Duration,
    },
}

impl Outcome {
    fn ratios(&self, html: usize) -> Option<(f64, f64)> {
        match self {
            Outcome::Measured {
                handed,
                stream,
                once,
                ..
            } => Some((
                *handed as f64 / html as f64,
                stream.as_secs_f64() / once.as_secs_f64(),
            )),
            Outcome::Stopped { .. } => None,
        }
    }
}

/// A row's stream time, one-shot time and stream = render cells.
fn timing_cells(row: &Row, budget: Duration) -> (String, String, &'static str) {
    match &row.outcome {
        Outcome::Measured {
            stream, once, same, ..
        } => (
            format!("{stream:.2?}"),
            format!("{once:.2?}"),
            if *same { "yes" } else { "**FAIL**" },
        ),
        Outcome::Stopped { .. } => (
            format!("> {:.0} s", budget.as_secs_f64()),
            format!("{:.2?}", row.once),
            "not checked",
        ),
    }
}

fn one_shot(text: &str, options: &Options) -> (Duration, String) {
    let start = Instant::now();
    let html = black_box(render(black_box(text), options)).html;
    (start.elapsed(), html)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Streams and renders `text` interleaved, [`RUNS`] times (once when slow).
fn measure(label: &str, kib: usize, text: &str, options: &Options, budget: Duration) -> Row {
    let (mut streams, mut onces) = (Vec::new(), Vec::new());
    let (mut expected, mut handed, mut same) = (String::new(), 0, true);
    let mut outcome = None;
    for run in 0..RUNS {
        let (once, html) = one_shot(text, options);
        onces.push(once);
        expected = html;
        match stream_painting_every_push(text, options, CHUNK, budget) {
            Timed::Stopped { at, after } => {
                outcome = Some(Outcome::Stopped { at, after });
                break;
            }
            Timed::Done {
                time,
                handed: bytes,
                html,
            } => {
                streams.push(time);
                handed = bytes;
                if run == 0 && html != expected {
                    same = false;
                    let at = html
                        .bytes()
                        .zip(expected.bytes())
                        .position(|(a, b)| a != b)
                        .unwrap_or(html.len().min(expected.len()));
                    println!(
                        "FAIL {label} {kib} KiB: stream HTML ({} bytes) != render HTML ({} bytes), first difference at byte {at}",
                        html.len(),
                        expected.len()
                    );
                }
                if time > SLOW {
                    break;
                }
            }
        }
    }
    // More one-shot samples: it is cheap and noisier.
    for _ in 0..RUNS {
        onces.push(one_shot(text, options).0);
    }
    let once = median(onces);
    let outcome = outcome.unwrap_or_else(|| Outcome::Measured {
        handed,
        runs: streams.len(),
        stream: median(streams),
        once,
        same,
    });
    Row {
        shape: label.to_owned(),
        kib,
        input: text.len(),
        html: expected.len(),
        once,
        outcome,
    }
}

fn print_progress(row: &Row) {
    let head = format!(
        "{:17} {:>4} KiB  input {:>7} B  html {:>7} B",
        row.shape, row.kib, row.input, row.html
    );
    match &row.outcome {
        Outcome::Measured {
            handed,
            stream,
            once,
            runs,
            same,
        } => {
            let (bytes, time) = row.outcome.ratios(row.html).unwrap_or_default();
            println!(
                "{head}  handed {handed:>12} B ({bytes:>8.1}x)  stream {:>10.2?} / one-shot {:>9.2?} ({time:>8.1}x, {runs} run{})  {}",
                stream,
                once,
                if *runs == 1 { "" } else { "s" },
                if *same { "stream = render" } else { "FAIL: stream != render" }
            );
        }
        Outcome::Stopped { at, after } => println!(
            "{head}  stopped at {} KiB after {:.1} s",
            at / 1024,
            after.as_secs_f64()
        ),
    }
    let _ = std::io::stdout().flush();
}

fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name).ok().map(|value| {
        value
            .split(',')
            .map(|item| item.trim().to_owned())
            .filter(|item| !item.is_empty())
            .collect()
    })
}

fn options() -> Options {
    let root = env!("CARGO_MANIFEST_DIR");
    let sources = std::fs::read_to_string(format!("{root}/examples/sources.json"))
        .expect("examples/sources.json is part of the repository");
    Options::default()
        .with_sources_json(&sources)
        .expect("examples/sources.json is valid")
}

/// The handed ÷ HTML (`which` 0) or stream ÷ one-shot (1) cell; a stopped
/// run says where in the first and leaves the second empty.
fn ratio_cell(outcome: &Outcome, html: usize, which: usize) -> String {
    match (outcome.ratios(html), outcome) {
        (Some((bytes, time)), _) => format!("{:.1}x", if which == 0 { bytes } else { time }),
        (None, Outcome::Stopped { at, after }) if which == 0 => format!(
            "stopped at {} KiB after {:.1} s",
            at / 1024,
            after.as_secs_f64()
        ),
        (None, _) => "—".to_owned(),
    }
}

fn growth(first: &Row, last: &Row, which: usize) -> String {
    match (
        first.outcome.ratios(first.html),
        last.outcome.ratios(last.html),
    ) {
        (Some(a), Some(b)) => {
            let (a, b) = if which == 0 { (a.0, b.0) } else { (a.1, b.1) };
            format!("{:.1}x", b / a)
        }
        _ => "n/a (stopped)".to_owned(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    let budget = Duration::from_secs_f64(
        std::env::var("SHAPES_BUDGET_S")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(20.0),
    );
    let names: Vec<String> = env_list("SHAPES")
        .unwrap_or_else(|| shapes::SHAPES.iter().map(|s| s.to_string()).collect());
    let sizes: Vec<usize> = env_list("SIZES")
        .map(|sizes| {
            sizes
                .iter()
                .map(|s| s.parse().expect("SIZES: KiB as integers, e.g. 16,256"))
                .collect()
        })
        .unwrap_or_else(|| vec![16, 256]);
    let options = options();

    println!("CPU: {}", cpu_model());
    println!(
        "streaming by shape: push_deferred in {CHUNK}-byte chunks, tail_into after every push, finish; \
         budget {:.0} s per stream run; {RUNS} interleaved runs (1 when a stream takes over {SLOW:?})\n",
        budget.as_secs_f64()
    );

    let mut rows = Vec::new();
    for name in &names {
        for &kib in &sizes {
            let Some(text) = shapes::shape(name, kib * 1024) else {
                println!(
                    "unknown shape {name:?}; shapes: {}",
                    shapes::SHAPES.join(", ")
                );
                break;
            };
            let row = measure(name, kib, &text, &options, budget);
            print_progress(&row);
            rows.push(row);
        }
    }

    println!("\none paragraph being typed (one line, no blank line), in English and in Chinese\n");
    let mut paragraph = Vec::new();
    /// A paragraph's text at a size.
    type Paragraph = fn(usize) -> String;
    let languages: [(&str, Paragraph); 2] = [
        ("English", shapes::single_paragraph),
        ("Chinese", shapes::single_cjk_paragraph),
    ];
    for (language, make) in languages {
        for &kib in PARAGRAPH_SIZES {
            let row = measure(language, kib, &make(kib * 1024), &options, budget);
            print_progress(&row);
            paragraph.push(row);
        }
    }

    println!("\nCPU: {}\n", cpu_model());
    println!("| shape | size | final HTML | handed ÷ HTML | stream ÷ one-shot | stream | one-shot | stream = render |");
    println!("|:--|--:|--:|--:|--:|--:|--:|:--|");
    for row in &rows {
        let (stream, once, same) = timing_cells(row, budget);
        println!(
            "| {} | {} KiB | {} B | {} | {} | {stream} | {once} | {same} |",
            row.shape,
            row.kib,
            row.html,
            ratio_cell(&row.outcome, row.html, 0),
            ratio_cell(&row.outcome, row.html, 1),
        );
    }

    if sizes.len() > 1 {
        let (small, large) = (sizes[0], sizes[sizes.len() - 1]);
        println!("\ngrowth of each ratio from {small} KiB to {large} KiB (flat = 1.0x; quadratic ~ {:.0}x)\n", large as f64 / small as f64);
        println!("| shape | handed ÷ HTML | stream ÷ one-shot |");
        println!("|:--|--:|--:|");
        for name in &names {
            let first = rows.iter().find(|r| &r.shape == name && r.kib == small);
            let last = rows.iter().find(|r| &r.shape == name && r.kib == large);
            if let (Some(first), Some(last)) = (first, last) {
                println!(
                    "| {name} | {} | {} |",
                    growth(first, last, 0),
                    growth(first, last, 1)
                );
            }
        }
    }

    println!("\n| single paragraph | size | final HTML | handed ÷ HTML | stream ÷ one-shot | stream | one-shot | stream = render |");
    println!("|:--|--:|--:|--:|--:|--:|--:|:--|");
    for row in &paragraph {
        let (stream, once, same) = timing_cells(row, budget);
        println!(
            "| {} | {} KiB | {} B | {} | {} | {stream} | {once} | {same} |",
            row.shape,
            row.kib,
            row.html,
            ratio_cell(&row.outcome, row.html, 0),
            ratio_cell(&row.outcome, row.html, 1),
        );
    }

    println!(
        "\nfloor probe: the least a stream with a tail after every push does on a code block\n"
    );
    println!("| fenced code | one-shot | floor probe | probe ÷ one-shot | probe's handed ÷ HTML |");
    println!("|:--|--:|--:|--:|--:|");
    for &kib in &sizes {
        let Some(text) = shapes::shape("fenced-code", kib * 1024) else {
            continue;
        };
        let (mut probes, mut onces, mut handed) = (Vec::new(), Vec::new(), 0);
        let mut html = 0;
        for _ in 0..RUNS {
            let (once, rendered) = one_shot(&text, &options);
            onces.push(once);
            html = rendered.len();
            let start = Instant::now();
            handed = black_box(code_floor(&text));
            probes.push(start.elapsed());
        }
        let (probe, once) = (median(probes), median(onces));
        println!(
            "| {kib} KiB | {once:.2?} | {probe:.2?} | {:.1}x | {:.1}x |",
            probe.as_secs_f64() / once.as_secs_f64(),
            handed as f64 / html as f64
        );
    }
}

/// The least that a stream handing the host a tail after every push does
/// on one long fenced code block, written plainly (not citemark): keep the
/// line being typed escaped, extend it with each push's bytes, hand each
/// finished line over once and the line being typed as the tail after
/// every push (copied out, as a host receives it). Returns the bytes
/// handed. Its time over one render is the floor of "stream ÷ one-shot"
/// for code under this protocol.
fn code_floor(text: &str) -> usize {
    let (mut typed, mut tail, mut handed) = (String::new(), String::new(), 0);
    for piece in chunks::str_chunks(text, CHUNK) {
        let mut rest = piece;
        while let Some(end) = rest.find('\n') {
            let _ = escape_html_body_text(&mut typed, &rest[..=end]);
            handed += typed.len();
            black_box(&typed);
            typed.clear();
            rest = &rest[end + 1..];
        }
        let _ = escape_html_body_text(&mut typed, rest);
        tail.clone_from(&typed);
        handed += black_box(&tail).len();
    }
    handed
}
