#!/usr/bin/env bash
# Instructions per event of every benchmark row, counted by valgrind's callgrind on a release build.
#
#   Benchmarks/instruction-counts.sh [-b BINARY]... [-r ID,ID…] [-s SMALL] [-l LARGE]
#
# For each row, the benchmark binary runs under callgrind twice, with SMALL (20,000) and LARGE
# (120,000) events, counting only inside the row's @inline(never) function (--toggle-collect).
# Instructions per event = (Ir(LARGE) - Ir(SMALL)) / (LARGE - SMALL): what a run costs once (the
# object, the first call's lazy initialisation) cancels out. Unlike the wall clock, the count does
# not depend on the machine's load; it is the same from run to run (Swift's hashing is made
# deterministic for that: SWIFT_DETERMINISTIC_HASHING=1).
#
# -b BINARY  a StateMachinesBenchmarks release binary (default: this package's
#            .build/release/StateMachinesBenchmarks). Give it twice, before then after, to compare:
#            the runs alternate row by row and a last column shows the change, flagged over +5%.
#            A binary without `--once` (before it existed) is run as `EVENTS 1 --only ID`: the
#            toggled function is then called for the warm-up (EVENTS/10), the allocation count
#            (EVENTS/10 and EVENTS/5) and the repetition, 1.4 x EVENTS events in all, which the
#            script divides by instead.
# -r IDS     the rows (default: every row of Sources/Benchmarks/main.swift)
#
# The row ids and their functions are read from this checkout's Sources/Benchmarks/main.swift;
# a row whose function a binary lacks (nm) shows n/a for that binary.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
binaries=()
rows=""
small=20000
large=120000
while getopts "b:r:s:l:h" option; do
  case $option in
    b) binaries+=("$(realpath "$OPTARG")") ;;
    r) rows=$OPTARG ;;
    s) small=$OPTARG ;;
    l) large=$OPTARG ;;
    *) sed -n '2,/^set /p' "$0" | sed '$d'; exit 2 ;;
  esac
done
[ ${#binaries[@]} -gt 0 ] || binaries=("$here/.build/release/StateMachinesBenchmarks")
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install -y valgrind)" >&2; exit 1; }
export SWIFT_DETERMINISTIC_HASHING=1

# "id function" per row, in the order of the table.
declare -A function_of
ids=()
while read -r id function; do
  function_of[$id]=$function
  ids+=("$id")
done < <(sed -n 's/.*BenchmarkCase(id: "\([^"]*\)".*run: \([A-Za-z0-9_]*\)).*/\1 \2/p' \
  "$here/Sources/Benchmarks/main.swift")
if [ -n "$rows" ]; then IFS=, read -r -a ids <<<"$rows"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information Swift 6 emits and gives up,
# so callgrind runs a copy without it (the symbol table stays; the run path is absolute).
# Whether each binary has `--once`; the events its counted region sees for a run of N events.
declare -A once stripped
for index in "${!binaries[@]}"; do
  binary=${binaries[$index]}
  [ -x "$binary" ] || { echo "no binary at $binary (swift build -c release)" >&2; exit 1; }
  stripped[$binary]=$work/binary-$index
  objcopy --strip-debug "$binary" "${stripped[$binary]}"
  if grep -qa -- "--once" "$binary"; then once[$binary]=1; else once[$binary]=0; fi
done
region_events() { # binary events
  if [ "${once[$1]}" = 1 ]; then echo "$2"; else
    local warm=$(( $2 / 10 / 2 * 2 )); [ $warm -ge 2 ] || warm=2
    echo $(( $2 + 4 * warm ))
  fi
}

# The mangled name of row `id`'s function (`func name(_ events: Int) -> Int` in module Benchmarks).
symbol_of() { local function=${function_of[$1]:?unknown row $1}; echo "\$s10Benchmarks${#function}${function}yS2iF"; }
has_row() { # binary id: whether the binary has the row's function (an older one may lack a row)
  nm "$1" | awk -v s="$(symbol_of "$2")" '$3 == s { found = 1 } END { exit !found }'
}

# Instructions executed inside the row's function (and what it calls) for a run of `events` events.
count() { # binary id events
  local symbol; symbol=$(symbol_of "$2")
  local arguments=("$3" 1 --only "$2")
  [ "${once[$1]}" = 1 ] && arguments+=(--once)
  valgrind --tool=callgrind --demangle=no --collect-atstart=no "--toggle-collect=$symbol" \
    --callgrind-out-file="$work/out" "${stripped[$1]}" "${arguments[@]}" >"$work/log" 2>&1 \
    || { cat "$work/log" >&2; exit 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$work/out"
}

declare -A per_event
for id in "${ids[@]}"; do
  for index in "${!binaries[@]}"; do
    binary=${binaries[$index]}
    if ! has_row "$binary" "$id"; then per_event[$index,$id]=n/a; continue; fi
    low=$(count "$binary" "$id" "$small")
    high=$(count "$binary" "$id" "$large")
    span=$(( $(region_events "$binary" "$large") - $(region_events "$binary" "$small") ))
    per_event[$index,$id]=$(awk -v a="$low" -v b="$high" -v n="$span" 'BEGIN { printf "%.2f", (b - a) / n }')
  done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }

echo "Instructions per event, callgrind, (Ir($large) - Ir($small)) / events, the row's function only"
for index in "${!binaries[@]}"; do
  echo "  [$index] ${binaries[$index]}$([ "${once[${binaries[$index]}]}" = 1 ] || echo " (without --once)")"
done
header=$(printf "%-5s" row)
for index in "${!binaries[@]}"; do header+=$(printf "  %10s  %6s" "Ir/ev [$index]" "x 5l"); done
last=$(( ${#binaries[@]} - 1 ))
[ $last -gt 0 ] && header+=$(printf "  %8s" change)
echo "$header"
for id in "${ids[@]}"; do
  line=$(printf "%-5s" "$id")
  for index in "${!binaries[@]}"; do
    line+=$(printf "  %10s  %6s" "${per_event[$index,$id]}" "$(ratio "${per_event[$index,$id]}" "${per_event[$index,5l]:-0}")")
  done
  if [ $last -gt 0 ]; then
    line+=$(awk -v a="${per_event[0,$id]}" -v b="${per_event[$last,$id]}" \
      'BEGIN { if (!(a + 0 > 0 && b + 0 > 0)) { printf "  %8s", "-"; exit }
        c = (b - a) / a * 100; printf "  %+7.1f%%%s", c, (c > 5 ? "  REGRESSED" : "") }')
  fi
  echo "$line"
done

# The performance targets (Benchmarks/README.md), for each binary, from the rows that ran.
target() { # index id baseline-id limit description
  local a=${per_event[$1,$2]:-n/a} b=${per_event[$1,$3]:-n/a}
  [ "$a" != n/a ] && [ "$b" != n/a ] || return 0
  local r; r=$(ratio "$a" "$b")
  awk -v r="$r" -v l="$4" 'BEGIN { exit !(r <= l) }' && verdict="MET   " || verdict="MISSED"
  echo "$verdict [$1] $5: ${r}x ($a vs $b instructions)"
}
for index in "${!binaries[@]}"; do
  echo
  target "$index" 1 5l 1.5 "after-callback cycle (1) <= 1.5x the lean enum (5l)"
  target "$index" 1 5 2 "generated event method (1) <= 2x the hand-written enum (5)"
  target "$index" d1 d5l 1.5 "events as data: generated methods (d1) <= 1.5x the lean enum (d5l)"
  target "$index" d1e d1 3 "events as data: entry action (d1e) <= 3x the after callback (d1)"
  target "$index" 3 1 1 "rejected event (3) <= accepted event (1)"
  target "$index" 7f 7 3 "full step (7f) <= 3x the light path with the same callbacks (7)"
  target "$index" 2 1 4 "fire(\"name\") (2) <= 4x the generated method (1)"
  target "$index" n1 1b 1.1 "nested leaf to leaf without code (n1) <= 1.1x the flat fast tier (1b)"
  target "$index" n2 9 1.2 "nested with entry/exit actions (n2) <= 1.2x the flat full step (9)"
  target "$index" n3 9 3 "event in both regions of a parallel state (n3) <= 3x the flat full step (9)"
  if [ "${per_event[$index,1s]:-n/a}" != n/a ] && [ "${per_event[$index,1]:-n/a}" != n/a ]; then
    lock=$(awk -v a="${per_event[$index,1s]}" -v b="${per_event[$index,1]}" 'BEGIN { printf "%.2f", a - b }')
    awk -v d="$lock" 'BEGIN { exit !(d <= 25) }' && verdict="MET   " || verdict="MISSED"
    echo "$verdict [$index] Sendable lock (1s - 1) <= 25 instructions per event: $lock"
  fi
done
