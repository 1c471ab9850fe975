#!/usr/bin/env bash
# citemark's render against pulldown-cmark's push_html as instruction counts
# (valgrind's callgrind) on the demo answer repeated to ~2/20/200 KiB: the
# throughput ratio of `benches/render.rs` without a shared machine's noise.
# Then, at ~20 KiB, what the citations cost: the answer without them, and one
# paragraph repeated with `(1)`, a `[1]` marker or a cite tag in it
# (`examples/render_cost.rs` describes the corpora). For the answer, the
# floor: the least work that writes the output contract's citations on top
# of push_html (benches/support/floor.rs), to weigh the 0.8× target against.
# Usage: benches/render-instructions.sh   (needs valgrind; about a minute)
source "$(dirname "$0")/support/callgrind.sh"
cargo build --release --quiet --example render_cost
bin=target/release/examples/render_cost

# row SIZE CORPUS: instructions of each, and pulldown-cmark's over citemark's;
# for the answer, also the floor (benches/support/floor.rs: push_html fed the
# contract's citation elements with no other work) and pulldown-cmark's over it.
row() {
  local input citemark pulldown floor='' floor_ratio=''
  input=$(count "$bin" none "$1" "$2")
  citemark=$(($(count "$bin" citemark "$1" "$2") - input))
  pulldown=$(($(count "$bin" pulldown "$1" "$2") - input))
  if [ "$2" = answer ]; then
    floor=$(($(count "$bin" floor "$1" "$2") - input))
    floor_ratio=$(awk -v p=$pulldown -v f=$floor 'BEGIN { printf "%.2f", p / f }')
  fi
  awk -v s="$1" -v k="$2" -v c=$citemark -v p=$pulldown -v f="$floor" -v r="$floor_ratio" \
    'BEGIN { printf "%-8s %-8s %14d %16d %18.2f %12s %14s\n", s, k, c, p, p / c, f, r }'
}

printf '%-8s %-8s %14s %16s %18s %12s %14s\n' size corpus citemark pulldown-cmark 'citemark ÷ pulldown' floor 'floor ÷ pulldown'
for size in 2048 20480 204800; do
  row $size answer
done
for corpus in prose plain marker cite; do
  row 20480 $corpus
done
