#!/usr/bin/env bash
# citemark's render against pulldown-cmark's push_html as instruction counts
# (valgrind's callgrind) on the demo answer repeated to ~2/20/200 KiB: the
# throughput ratio of `benches/render.rs` without a shared machine's noise.
# Usage: benches/render-instructions.sh   (needs valgrind; about a minute)
source "$(dirname "$0")/support/callgrind.sh"
cargo build --release --quiet --example render_cost
bin=target/release/examples/render_cost
printf '%-8s %14s %16s %18s\n' size citemark pulldown-cmark 'citemark ÷ pulldown'
for size in 2048 20480 204800; do
  input=$(count "$bin" none $size)
  citemark=$(( $(count "$bin" citemark $size) - input ))
  pulldown=$(( $(count "$bin" pulldown $size) - input ))
  # Throughput ratio: pulldown-cmark's instructions over citemark's.
  awk -v s=$size -v c=$citemark -v p=$pulldown \
    'BEGIN { printf "%-8s %14d %16d %18.2f\n", s, c, p, p / c }'
done
