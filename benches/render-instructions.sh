#!/usr/bin/env bash
# citemark's render against pulldown-cmark's push_html as instruction counts
# (valgrind's callgrind) on the demo answer repeated to ~2/20/200 KiB: the
# throughput ratio of `benches/render.rs` without a shared machine's noise.
# Usage: benches/render-instructions.sh   (needs valgrind; about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)"; exit 1; }
cargo build --release --quiet --example render_cost
bin=target/release/examples/render_cost
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
printf '%-8s %14s %16s %18s\n' size citemark pulldown-cmark 'citemark ÷ pulldown'
for size in 2048 20480 204800; do
  input=$(count none $size)
  citemark=$(( $(count citemark $size) - input ))
  pulldown=$(( $(count pulldown $size) - input ))
  # Throughput ratio: pulldown-cmark's instructions over citemark's.
  awk -v s=$size -v c=$citemark -v p=$pulldown \
    'BEGIN { printf "%-8s %14d %16d %18.2f\n", s, c, p, p / c }'
done
