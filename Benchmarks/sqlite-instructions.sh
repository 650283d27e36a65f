#!/usr/bin/env bash
# The SQLite store's batching judged by instructions, not CPU time (Benchmarks/README.md, *The
# SQLite store*): instructions per fire inside a 100-fire write, the store's (S4,
# `storeFiresInWrite`) against the same work by hand (B4, B1c's three statements per row,
# `handStepsInWrite`), counted by valgrind's callgrind in a release build of StoreBenchmark. Goal:
# S4 ≤ 1.2 × B4.
#
#   Benchmarks/sqlite-instructions.sh [SMALL LARGE]     # events per run, default 1000 and 3000
#
# Each row's sync mode runs under callgrind twice (`StoreBenchmark EVENTS 1 --only ID-sync`),
# counting only inside the row's @inline(never) write function (--toggle-collect); instructions
# per fire = (Ir(LARGE) − Ir(SMALL)) ÷ (LARGE − SMALL), so that what a run costs once (the warm-up,
# the statements' preparation) cancels out. The count does not depend on the machine's load.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
small="${1:-1000}"
large="${2:-3000}"
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install -y valgrind)" >&2; exit 1; }
swift build -c release --disable-experimental-prebuilts --package-path "$here" --product StoreBenchmark >&2
bench="$here/.build/release/StoreBenchmark"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the DWARF of Swift's release builds ("possibly corrupted debuginfo"): it
# runs a copy without it, whose symbols are those of the build.
objcopy --strip-debug "$bench" "$work/StoreBenchmark"

# The mangled name of the benchmark's function `name`.
symbol() { nm "$bench" | awk -v n="$1" '!found && $2 ~ /^[Tt]$/ && index($3, n) && $3 ~ /^\$s14StoreBenchmark/ { print $3; found = 1 }'; }

count() { # row function events: instructions inside the function for a run of `events` events
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --demangle=no --collect-atstart=no "--toggle-collect=$2" \
    --callgrind-out-file="$work/out" "$work/StoreBenchmark" "$3" 1 --only "$1-sync" >"$work/log" 2>&1 \
    || { cat "$work/log" >&2; exit 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$work/out"
}

declare -A per_fire
for row in S4:storeFiresInWrite B4:handStepsInWrite; do
  id="${row%%:*}"
  function="$(symbol "${row#*:}")"
  [ -n "$function" ] || { echo "no function ${row#*:} in $bench" >&2; exit 1; }
  low="$(count "$id" "$function" "$small")"
  high="$(count "$id" "$function" "$large")"
  per_fire[$id]="$(awk -v a="$low" -v b="$high" -v n="$((large - small))" 'BEGIN { printf "%.0f", (b - a) / n }')"
  echo "$id: ${per_fire[$id]} instructions per fire inside the write (callgrind, $small and $large events)"
done
ratio="$(awk -v s="${per_fire[S4]}" -v b="${per_fire[B4]}" 'BEGIN { printf "%.2f", s / b }')"
verdict="$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2 ? "met" : "MISSED") }')"
echo "goal S4 instructions per fire <= 1.2 x B4's: $ratio, $verdict"
