#!/usr/bin/env bash
# Streaming cost as instruction counts (valgrind's callgrind): the ratio of a
# streamed answer's instructions to one render of it, per size and chunk size.
# Unlike timings, counts do not move with the load of a shared machine.
# Usage: benches/stream-instructions.sh   (needs valgrind; a few minutes)
source "$(dirname "$0")/support/callgrind.sh"
cargo build --release --quiet --example stream_cost
bin=target/release/examples/stream_cost
startup=$(count "$bin" one 0 4)
# Per byte of the answer too: streaming's instructions per byte stay the
# same from size to size (linear); one render's fall a little as its fixed
# costs spread over more bytes, which is all that moves the ratio.
printf '%-8s %6s %16s %16s %12s %12s\n' size chunk tail-every-push tail-per-frame \
  'one-shot/B' 'streamed/B'
for size in 2048 20480 204800 819200; do
  bytes=$("$bin" bytes $size 4)
  one=$(( $(count "$bin" one $size 4) - startup ))
  for chunk in 4 16 64; do
    push=$(( $(count "$bin" push $size $chunk) - startup ))
    frame=$(( $(count "$bin" frame $size $chunk) - startup ))
    awk -v s=$bytes -v c=$chunk -v p=$push -v f=$frame -v o=$one \
      'BEGIN { printf "%-8s %6s %15.2fx %15.2fx %12.1f %12.1f\n", s, c, p / o, f / o, o / s, p / s }'
  done
done
# Two shapes that keep a block open (4-byte chunks): one long list of one-line
# items, and the answer after an undefined `[note]` (nothing can be committed
# before the end): the tail after every push and once per 256 bytes.
printf '%-8s %6s %16s %16s\n' shape size tail-every-push tail-per-frame
for shape in list note; do
  for size in 2048 20480 40960; do
    one=$(( $(count "$bin" one $size 4 $shape) - startup ))
    push=$(( $(count "$bin" push $size 4 $shape) - startup ))
    frame=$(( $(count "$bin" frame $size 4 $shape) - startup ))
    awk -v n=$shape -v s=$size -v p=$push -v f=$frame -v o=$one \
      'BEGIN { printf "%-8s %6s %15.1fx %15.1fx\n", n, s, p / o, f / o }'
  done
done
