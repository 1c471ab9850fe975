# Sourced by benches/*-instructions.sh: counting instructions with valgrind's
# callgrind, which the load of a shared machine does not move.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)"; exit 1; }

# count BIN ARGS...: the instructions BIN ARGS... executes.
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
