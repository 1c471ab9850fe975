//! citemark vs. pulldown-cmark on assistant answers.
//!
//! Two corpora, each at ~2 KiB, ~20 KiB and ~200 KiB:
//! - `answer`: the demo answer `examples/answer.md` (a data assistant's
//!   answer: prose, a table, a code block, 13 citations in 3 KiB), repeated;
//! - `fixtures`: the shared fixtures in `tests/samples/`, which pack every
//!   edge case (raw HTML, XSS attempts, malformed and unresolved citations)
//!   into a few KiB: whole answers are concatenated (`mixed-kitchen-sink`
//!   first, then the rest by file name, cycling), the last cut at a
//!   top-level heading, wherever that lands closest to the target. Their
//!   sources are merged into one list (see [`merge_sources`]) so that cite
//!   tags, short links and `[n]` markers resolve.
//!
//! For each size one criterion group measures, side by side:
//! - `citemark`: [`citemark::render`] with default options plus the merged
//!   sources (every citation syntax, sanitization and URL checks on);
//! - `pulldown-cmark`: `pulldown_cmark::html::push_html` with tables,
//!   strikethrough, task lists, footnotes and GFM enabled.
//!
//! A `raw-html` group then compares, on a raw-HTML-heavy input, citemark's
//! [`RawHtml::Sanitize`] (ammonia over the raw HTML only), [`RawHtml::Escape`]
//! (no sanitizing at all) and the design citemark rejected: rendering with
//! raw HTML passed through, then running ammonia over the whole document.
//!
//! After the criterion groups, the bench prints a plain summary table from
//! its own interleaved median timing, so `make bench` ends with the
//! throughput ratio (citemark MiB/s ÷ pulldown-cmark MiB/s) that docs/performance.md
//! ("One-shot rendering") and the README quote.

use std::collections::{BTreeMap, HashSet};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use citemark::{render, Options, RawHtml, Source};
use criterion::{Criterion, Throughput};

#[path = "support/pulldown.rs"]
mod pulldown;
use pulldown::pulldown_html;

/// Corpus sizes: (label, target length in bytes).
const SIZES: &[(&str, usize)] = &[
    ("2KiB", 2 * 1024),
    ("20KiB", 20 * 1024),
    ("200KiB", 200 * 1024),
];
/// Size of the raw-HTML-heavy input for the sanitize-vs-escape group.
const RAW_HTML_SIZE: usize = 20 * 1024;
/// The fixture that leads every corpus (it exercises every syntax early).
const FIRST_SAMPLE: &str = "mixed-kitchen-sink";
/// The fixtures that carry the most raw HTML, for the raw-HTML group.
const RAW_HTML_SAMPLES: &[&str] = &["raw-html-details", "streaming-unsafe"];
/// Timed runs per contender in the summary table.
const SUMMARY_RUNS: usize = 30;
/// Each summary run repeats the render until it has processed at least this
/// many bytes, so that small inputs are not dominated by timer resolution.
const SUMMARY_BYTES_PER_RUN: usize = 400 * 1024;

/// One fixture: `NAME.md` plus its optional `NAME.sources.json`.
struct Sample {
    name: String,
    markdown: String,
    sources: Vec<Source>,
    aliases: BTreeMap<String, String>,
}

/// The demo answer and its sources, relative to the crate root.
const ANSWER: (&str, &str) = ("examples/answer.md", "examples/sources.json");

/// One benchmark input and the options citemark renders it with.
struct Corpus {
    label: String,
    markdown: String,
    options: Options,
}

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/samples")
}

/// Every `tests/samples/*.md` except the README: [`FIRST_SAMPLE`], then the
/// rest sorted by name.
fn load_samples() -> Vec<Sample> {
    let dir = samples_dir();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut names: Vec<String> = entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".md")?;
            (stem != "README").then(|| stem.to_owned())
        })
        .collect();
    names.sort_by_key(|name| (name != FIRST_SAMPLE, name.clone()));
    assert!(!names.is_empty(), "no samples in {}", dir.display());
    names
        .into_iter()
        .map(|name| {
            let md_path = dir.join(format!("{name}.md"));
            let markdown = std::fs::read_to_string(&md_path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", md_path.display()));
            let sources_path = dir.join(format!("{name}.sources.json"));
            let (sources, aliases) = match std::fs::read_to_string(&sources_path) {
                Ok(json) => {
                    let options = Options::default()
                        .with_sources_json(&json)
                        .unwrap_or_else(|e| panic!("{}: {e}", sources_path.display()));
                    (options.sources.unwrap_or_default(), options.aliases)
                }
                Err(_) => (Vec::new(), BTreeMap::new()),
            };
            Sample {
                name,
                markdown,
                sources,
                aliases,
            }
        })
        .collect()
}

/// Cuts `markdown` into sections, each starting at a top-level ATX heading
/// (none inside fenced code). An answer that ends inside an unclosed fence
/// (a cut-off stream) gets a closing fence, so it cannot swallow the next
/// answer.
fn sections(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    // The open fence's character and length, if inside fenced code.
    let mut fence: Option<(u8, usize)> = None;
    for line in markdown.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let run = |c: u8| trimmed.bytes().take_while(|&b| b == c).count();
        match fence {
            Some((c, len)) => {
                if indent < 4 && run(c) >= len && trimmed[run(c)..].trim().is_empty() {
                    fence = None;
                }
            }
            None => {
                if indent < 4 {
                    for c in [b'`', b'~'] {
                        if run(c) >= 3 {
                            fence = Some((c, run(c)));
                        }
                    }
                }
                let heading = trimmed.starts_with('#')
                    && indent == 0
                    && trimmed
                        .trim_start_matches('#')
                        .starts_with([' ', '\t', '\n']);
                if heading && !current.trim().is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
        }
        current.push_str(line);
    }
    if !current.ends_with('\n') {
        current.push('\n');
    }
    if let Some((c, len)) = fence {
        current.push_str(&String::from_utf8(vec![c; len]).expect("ASCII fence"));
        current.push('\n');
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}

/// Concatenates `samples` (whole, in order, cycling) until the text is
/// about `target` bytes long: the answer that crosses the target is cut at
/// the section boundary closest to it.
fn build_markdown(samples: &[&Sample], target: usize) -> String {
    let split: Vec<Vec<String>> = samples.iter().map(|s| sections(&s.markdown)).collect();
    let mut markdown = String::with_capacity(target + 8 * 1024);
    for section in split.iter().flatten().cycle() {
        let short = target.saturating_sub(markdown.len());
        let over = (markdown.len() + section.len()).saturating_sub(target);
        if short == 0 || (!markdown.is_empty() && over > short) {
            break;
        }
        markdown.push_str(section);
        // A blank line, so no block runs on into the next answer.
        markdown.push('\n');
    }
    markdown
}

/// Merges the samples' sources into one list, in sample order: a source
/// with an `id` is kept once per id, one without an `id` once per href (or
/// title). Explicit `index`es are dropped, so `[n]` cites the merged list's
/// n-th source: the samples' numbers overlap, and what the benchmark needs
/// is that markers resolve (and pay for resolving), not which source they
/// name. Aliases are merged too (the first sample to define one wins).
fn merge_sources(samples: &[&Sample]) -> (Vec<Source>, BTreeMap<String, String>) {
    let mut seen = HashSet::new();
    let mut sources = Vec::new();
    let mut aliases = BTreeMap::new();
    for sample in samples {
        for source in &sample.sources {
            let key = match (&source.id, &source.href, &source.title) {
                (Some(id), _, _) => format!("id:{id}"),
                (None, Some(href), _) => format!("href:{href}"),
                (None, None, title) => format!("title:{}", title.as_deref().unwrap_or("")),
            };
            if seen.insert(key) {
                let mut source = source.clone();
                source.index = None;
                sources.push(source);
            }
        }
        for (from, to) in &sample.aliases {
            aliases.entry(from.clone()).or_insert_with(|| to.clone());
        }
    }
    (sources, aliases)
}

fn corpus(label: &str, samples: &[&Sample], target: usize) -> Corpus {
    let markdown = build_markdown(samples, target);
    let (sources, aliases) = merge_sources(samples);
    let mut options = Options::default().with_sources(sources);
    options.aliases = aliases;
    Corpus {
        label: label.to_owned(),
        markdown,
        options,
    }
}

/// [`ANSWER`] repeated until it is about `target` bytes long.
fn answer_corpus(label: &str, target: usize) -> Corpus {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path))
            .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
    };
    let answer = read(ANSWER.0);
    let options = Options::default()
        .with_sources_json(&read(ANSWER.1))
        .unwrap_or_else(|e| panic!("{}: {e}", ANSWER.1));
    let copies = target.div_ceil(answer.len() + 1).max(1);
    let markdown = vec![answer.as_str(); copies].join("\n");
    Corpus {
        label: label.to_owned(),
        markdown,
        options,
    }
}

fn bench_sizes(c: &mut Criterion, corpora: &[Corpus]) {
    for corpus in corpora {
        let mut group = c.benchmark_group(format!("render/{}", corpus.label));
        group.throughput(Throughput::Bytes(corpus.markdown.len() as u64));
        group.bench_function("citemark", |b| {
            b.iter(|| render(black_box(&corpus.markdown), &corpus.options))
        });
        group.bench_function("pulldown-cmark", |b| {
            b.iter(|| pulldown_html(black_box(&corpus.markdown)))
        });
        group.finish();
    }
}

/// The rejected design: trust the renderer's raw HTML, then clean the whole
/// document with ammonia (allowing citemark's own classes and attributes).
fn whole_document_sanitizer() -> ammonia::Builder<'static> {
    let mut cleaner = ammonia::Builder::default();
    cleaner
        .add_tags(["button", "details", "summary", "mark", "abbr", "input"])
        .add_generic_attributes([
            "class",
            "title",
            "aria-label",
            "aria-hidden",
            "align",
            "type",
        ])
        .add_generic_attribute_prefixes(["data-citation-"])
        .add_tag_attributes("input", ["disabled", "checked"])
        .link_rel(Some(citemark::DEFAULT_LINK_REL));
    cleaner
}

fn bench_raw_html(c: &mut Criterion, corpus: &Corpus) {
    let sanitize = corpus.options.clone().with_raw_html(RawHtml::Sanitize);
    let escape = corpus.options.clone().with_raw_html(RawHtml::Escape);
    let mut trusting = corpus.options.clone();
    trusting.raw_html = RawHtml::DangerouslyPassThrough;
    let cleaner = whole_document_sanitizer();
    let mut group = c.benchmark_group(format!("raw-html/{}", corpus.label));
    group.throughput(Throughput::Bytes(corpus.markdown.len() as u64));
    group.bench_function("sanitize", |b| {
        b.iter(|| render(black_box(&corpus.markdown), &sanitize))
    });
    group.bench_function("escape", |b| {
        b.iter(|| render(black_box(&corpus.markdown), &escape))
    });
    group.bench_function("whole-document ammonia", |b| {
        b.iter(|| {
            let html = render(black_box(&corpus.markdown), &trusting).html;
            cleaner.clean(&html).to_string()
        })
    });
    group.finish();
}

/// One line per corpus: its size and how many citations citemark found.
fn describe(corpus: &Corpus) {
    let out = render(&corpus.markdown, &corpus.options);
    let occurrences = &out.citations.occurrences;
    let resolved = occurrences.iter().filter(|o| o.resolved).count();
    println!(
        "corpus {:>15}: {:>7} bytes of markdown, {:>4} citations ({} resolved), {} diagnostics",
        corpus.label,
        corpus.markdown.len(),
        occurrences.len(),
        resolved,
        out.citations.diagnostics.len()
    );
}

/// Median seconds per render of `a` and `b`, timed alternately (the order
/// flips every run) so that noise hits both contenders alike.
fn interleaved_medians(reps: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        for _ in 0..reps {
            f();
        }
        start.elapsed().as_secs_f64() / reps as f64
    };
    // Warm up caches and the allocator.
    time(&mut a);
    time(&mut b);
    let mut times_a = Vec::with_capacity(SUMMARY_RUNS);
    let mut times_b = Vec::with_capacity(SUMMARY_RUNS);
    for run in 0..SUMMARY_RUNS {
        if run % 2 == 0 {
            times_a.push(time(&mut a));
            times_b.push(time(&mut b));
        } else {
            times_b.push(time(&mut b));
            times_a.push(time(&mut a));
        }
    }
    (median(&mut times_a), median(&mut times_b))
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let mid = times.len() / 2;
    if times.len() % 2 == 0 {
        (times[mid - 1] + times[mid]) / 2.0
    } else {
        times[mid]
    }
}

fn mib_per_s(bytes: usize, seconds: f64) -> f64 {
    bytes as f64 / seconds / (1024.0 * 1024.0)
}

fn print_summary(corpora: &[Corpus]) {
    println!();
    println!(
        "Summary: median of {SUMMARY_RUNS} interleaved runs per contender \
         (citemark: default options + sources; pulldown-cmark: push_html, GFM options)"
    );
    println!(
        "{:>15} {:>9} {:>15} {:>21} {:>21}",
        "corpus", "bytes", "citemark MiB/s", "pulldown-cmark MiB/s", "throughput ratio"
    );
    for corpus in corpora {
        let md = corpus.markdown.as_str();
        let reps = SUMMARY_BYTES_PER_RUN.div_ceil(md.len()).max(1);
        let (citemark, pulldown) = interleaved_medians(
            reps,
            || {
                black_box(render(black_box(md), &corpus.options));
            },
            || {
                black_box(pulldown_html(black_box(md)));
            },
        );
        println!(
            "{:>15} {:>9} {:>15.1} {:>21.1} {:>20.2}",
            corpus.label,
            md.len(),
            mib_per_s(md.len(), citemark),
            mib_per_s(md.len(), pulldown),
            pulldown / citemark
        );
    }
}

/// Whether this is a real benchmark run (`cargo bench`), not `cargo test`
/// running the bench once as a test, nor `--list`.
fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    has("--bench") && !has("--test") && !has("--list") && !has("--profile-time")
}

fn main() {
    let samples = load_samples();
    let all: Vec<&Sample> = samples.iter().collect();
    let corpora: Vec<Corpus> = SIZES
        .iter()
        .map(|&(size, target)| answer_corpus(&format!("answer-{size}"), target))
        .chain(
            SIZES
                .iter()
                .map(|&(size, target)| corpus(&format!("fixtures-{size}"), &all, target)),
        )
        .collect();
    let html_heavy: Vec<&Sample> = samples
        .iter()
        .filter(|s| RAW_HTML_SAMPLES.contains(&s.name.as_str()))
        .collect();
    assert!(!html_heavy.is_empty(), "raw-HTML samples missing");
    let raw_html = corpus("20KiB", &html_heavy, RAW_HTML_SIZE);

    for corpus in &corpora {
        describe(corpus);
    }

    let mut criterion = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench_sizes(&mut criterion, &corpora);
    bench_raw_html(&mut criterion, &raw_html);
    criterion.final_summary();

    if benchmarking() {
        print_summary(&corpora);
    }
}
