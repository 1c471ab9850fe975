#!/usr/bin/env bash
# The README corpus (docs/corpus.md) as instruction counts (valgrind's
# callgrind): each document streamed in 4-byte chunks by a host that shows the
# typing the stream vouches for (`stream_cost typed`), over one render of it,
# each count less the run that only reads the document (`stream_cost bytes`);
# then the median, p90 and largest ratio, and the medians by size. Unlike the
# times of `make bench-corpus`, counts do not move with the load of a shared
# machine.
# Usage: benches/corpus-instructions.sh [NAME...]   (default: every document in
# target/corpus/readmes, which `make bench-corpus` collects; a few minutes)
source "$(dirname "$0")/support/callgrind.sh"
dir=target/corpus/readmes
[ -d "$dir" ] || scripts/collect-readmes.sh
cargo build --release --quiet --example stream_cost
bin=target/release/examples/stream_cost
if [ $# -eq 0 ]; then
  set -- $(ls "$dir" | sed 's/\.md$//')
fi
for name in "$@"; do
  doc="file:$dir/$name.md"
  base=$(count "$bin" bytes 0 4 "$doc")
  one=$(( $(count "$bin" one 0 4 "$doc") - base ))
  typed=$(( $(count "$bin" typed 0 4 "$doc") - base ))
  printf '%s %d %.1f\n' "$name" "$(wc -c < "$dir/$name.md")" "$(awk -v t="$typed" -v o="$one" 'BEGIN { print t / o }')"
done | sort -k3 -n | awk '
  { name[NR] = $1; ratio[NR] = $3; size = $2
    group = size < 2000 ? "under 2 KB" : size < 5000 ? "2-5 KB" : size < 10000 ? "5-10 KB" : size < 20000 ? "10-20 KB" : "20 KB and more"
    by[group] = by[group] " " $3; n[group]++
    print }
  END {
    printf "\n%d documents: median %.1fx, p90 %.1fx, most %.1fx (%s) one render\n", NR, ratio[int((NR + 1) / 2)], ratio[int(NR * 0.9)], ratio[NR], name[NR]
    split("under 2 KB|2-5 KB|5-10 KB|10-20 KB|20 KB and more", groups, "|")
    for (i = 1; i <= 5; i++) { g = groups[i]; if (n[g]) { split(substr(by[g], 2), r, " "); printf "  %s: %d documents, median %.1fx\n", g, n[g], r[int((n[g] + 1) / 2)] } }
  }'
