//! Streaming cost: a whole answer fed to a [`Stream`] in small chunks,
//! against rendering it once.
//!
//! The corpus is the demo answer `examples/answer.md` (prose, a table, a
//! code block, 13 citations in 3 KiB) with its sources, repeated to ~2 KiB,
//! ~20 KiB and ~200 KiB. For each size and chunk size (4, 16, 64 bytes):
//! - `one-shot`: [`citemark::render`] of the whole answer;
//! - `tail-every-push`: every chunk is [`Stream::push_deferred`]ed and the
//!   tail rendered with [`Stream::tail_into`] into one buffer (a host
//!   repainting after every token); the summary table adds `push()`: every
//!   chunk [`Stream::push`]ed, which hands over a new tail each time;
//! - `tail-per-frame`: chunks are [`Stream::push_deferred`]ed and the tail is
//!   rendered once per 256 bytes (a host repainting once per animation
//!   frame while a model streams ~15 KB/s).
//!
//! Criterion measures each; then a summary table from interleaved median
//! timing gives the ratio to one-shot (linear streaming keeps it flat from
//! 2 KiB to 200 KiB) and the p99 latency of one push on the 200 KiB answer.

use std::hint::black_box;
use std::time::{Duration, Instant};

use citemark::{render, Stream};
use criterion::{Criterion, Throughput};

#[path = "support/workload.rs"]
mod workload;
use workload::{
    chunks::str_chunks, corpus, stream_every_push, stream_every_push_new_tail, stream_per_frame,
};

const SIZES: &[(&str, usize)] = &[
    ("2KiB", 2 * 1024),
    ("20KiB", 20 * 1024),
    ("200KiB", 200 * 1024),
];
const CHUNKS: &[usize] = &[4, 16, 64];
const SUMMARY_RUNS: usize = 9;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn time(f: impl Fn()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn summary() {
    println!("\nstreaming cost / one-shot render (median of {SUMMARY_RUNS} interleaved runs)");
    println!(
        "{:8} {:>6} {:>11} {:>16} {:>9} {:>15} {:>13}",
        "size", "chunk", "one-shot", "tail-every-push", "push()", "tail-per-frame", "p99 push"
    );
    for &(label, size) in SIZES {
        let (text, options) = corpus(size);
        for &chunk in CHUNKS {
            let (mut once, mut every, mut new_tail, mut frame) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..SUMMARY_RUNS {
                once.push(time(|| {
                    black_box(render(black_box(&text), &options));
                }));
                every.push(time(|| {
                    black_box(stream_every_push(&text, chunk, &options));
                }));
                new_tail.push(time(|| {
                    black_box(stream_every_push_new_tail(&text, chunk, &options));
                }));
                frame.push(time(|| {
                    black_box(stream_per_frame(&text, chunk, &options));
                }));
            }
            let mut pushes = Vec::new();
            let mut stream = Stream::new(options.clone());
            for piece in str_chunks(&text, chunk) {
                let start = Instant::now();
                black_box(stream.push(piece));
                pushes.push(start.elapsed());
            }
            pushes.sort_unstable();
            let p99 = pushes[pushes.len() * 99 / 100];
            let once = median(once);
            let ratio = |d: Duration| d.as_secs_f64() / once.as_secs_f64();
            println!(
                "{label:8} {chunk:>6} {:>9.3}ms {:>15.1}x {:>8.1}x {:>14.1}x {:>11.1}µs",
                once.as_secs_f64() * 1e3,
                ratio(median(every)),
                ratio(median(new_tail)),
                ratio(median(frame)),
                p99.as_secs_f64() * 1e6,
            );
        }
    }
}

fn main() {
    let mut criterion = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300))
        .configure_from_args();
    for &(label, size) in SIZES {
        let (text, options) = corpus(size);
        let mut group = criterion.benchmark_group(format!("stream/{label}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("one-shot", |b| {
            b.iter(|| render(black_box(&text), &options))
        });
        for &chunk in CHUNKS {
            group.bench_function(format!("tail-every-push/{chunk}"), |b| {
                b.iter(|| stream_every_push(black_box(&text), chunk, &options))
            });
            group.bench_function(format!("tail-per-frame/{chunk}"), |b| {
                b.iter(|| stream_per_frame(black_box(&text), chunk, &options))
            });
        }
        group.finish();
    }
    criterion.final_summary();
    // `cargo test --all-targets` runs each benchmark once to check it
    // works; the summary is for `cargo bench` (which passes `--bench`).
    if std::env::args().any(|arg| arg == "--bench") {
        summary();
    }
}
