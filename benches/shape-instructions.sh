#!/usr/bin/env bash
# Streaming by shape as instruction counts (valgrind's callgrind): each shape
# of benches/support/shapes.rs at SIZE bytes (default 65536) in 4-byte chunks,
# streamed by a host that shows the typing the stream vouches for
# (`stream_cost typed`), over one render of it; each count less the run that
# only generates the shape (`stream_cost bytes`). Also the share of pushes that
# went to the stream. Unlike timings, counts do not move with the load of a
# shared machine.
# Usage: benches/shape-instructions.sh [SIZE]   (needs valgrind; a few minutes)
source "$(dirname "$0")/support/callgrind.sh"
cargo build --release --quiet --example stream_cost
bin=target/release/examples/stream_cost
size=${1:-65536}
printf '| shape | one render | typing shown by the host | ÷ one render | pushes to the stream |\n|:--|--:|--:|--:|--:|\n'
for shape in $("$bin" names 0 0); do
  base=$(count "$bin" bytes "$size" 4 "shape:$shape")
  one=$(( $(count "$bin" one "$size" 4 "shape:$shape") - base ))
  typed_out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" typed "$size" 4 "shape:$shape" 2>&1)
  typed=$(( $(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$typed_out") - base ))
  crossed=$(sed -n 's/.* \([0-9]*\) of \([0-9]*\) pushes went to the stream.*/\1 \2/p' <<<"$typed_out")
  awk -v n="$shape" -v o="$one" -v t="$typed" -v c="$crossed" '
    function k(x,   s, out) { s = sprintf("%d", x / 1000); out = "";
      while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
      return s out }
    BEGIN { split(c, p, " ");
      printf "| %s | %s k | %s k | %.1fx | %.0f%% |\n", n, k(o), k(t), t / o, 100 * p[1] / p[2] }'
done
