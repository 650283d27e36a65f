#!/usr/bin/env bash
# The PostgreSQL store benchmark (Benchmarks/README.md), in one run: a
# throwaway PostgreSQL 15 (.ci/postgres), the store's tables, pgbench on the same table (the
# single-statement compare-and-set pgbench/cas.sql, the locked transaction pgbench/locked.sql and
# the store's own fast-path statement pgbench/fast.sql, prepared as the store prepares it, and,
# prepared, the minimal statement a
# correct store must send for one event, compare-and-set plus P2's history row, pgbench/minimal.sql),
# then `StoreBenchmark postgres`: B0, B1, B0p, B4p, S1–S3 and the fast path at 1, 8 and 32
# concurrent tasks on one PostgresClient, with pgbench's figures in its table and goals. Around
# each pgbench run and each measured run, the server's CPU time is read from /proc (every
# `postgres` process), so that each row also gets the server's CPU per event. See Benchmarks/README.md.
#
#   Benchmarks/postgres-benchmark.sh            # about 8 minutes once built
#   PGBENCH_SECONDS=30 DURATION=10 ROUNDS=5 Benchmarks/postgres-benchmark.sh
#
# Settings (environment): CLIENTS (default "1 8 32", at most three levels of at most 100),
# PGBENCH_SECONDS (20: pgbench -T per run), DURATION (5: measured seconds per case, level and
# round), WARMUP (1), ROUNDS (3), SYNCHRONOUS_COMMIT (off: a COMMIT does not wait for the WAL's
# flush, so the figures measure round trips and CPU rather than the disk's fsync, which is the
# same one per transaction for every row; `on` measures durable commits).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
CLIENTS="${CLIENTS:-1 8 32}"
PGBENCH_SECONDS="${PGBENCH_SECONDS:-20}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-1}"
ROUNDS="${ROUNDS:-3}"
SYNCHRONOUS_COMMIT="${SYNCHRONOUS_COMMIT:-off}"
read -r -a levels <<<"$CLIENTS"
if [ "${#levels[@]}" -gt 3 ]; then echo "CLIENTS: at most three levels" >&2; exit 1; fi

swift build -c release --disable-experimental-prebuilts --package-path "$here" --product StoreBenchmark
bench="$here/.build/release/StoreBenchmark"

# shellcheck source=../.ci/postgres
source "$root/.ci/postgres"
start_postgres
work="$(mktemp -d)"
trap 'stop_postgres; rm -rf "$work"' EXIT
url="$STATEMACHINES_PG_URL"
pgbench="$(pg_config --bindir 2>/dev/null)/pgbench"
[ -x "$pgbench" ] || pgbench=/usr/lib/postgresql/15/bin/pgbench
psql "$url" -qc "ALTER SYSTEM SET synchronous_commit = '$SYNCHRONOUS_COMMIT'" -c "SELECT pg_reload_conf()" >/dev/null
echo "$("$pgbench" --version), synchronous_commit $(psql "$url" -Atc 'SHOW synchronous_commit'), $(nproc) cores;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"

"$bench" postgres --url "$url" --setup

# The CPU ticks (user + system) all `postgres` processes have used so far, with those of the
# children they reaped (a backend that ended adds its time to the postmaster's): the server's work.
# (A process that ends while `cat` reads makes it fail: that is no error here.)
server_ticks() { { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk '$2 == "(postgres)" { t += $14 + $15 + $16 + $17 } END { print t + 0 }'; }

# One pgbench run: its tps, p50/p99 from its per-transaction log (microseconds, 3rd field), and
# the server's CPU microseconds per transaction.
# Each level has rows of its own (base, base + 100, base + 200), all at version 0 at the start.
run_pgbench() { # name base clients [protocol]
  local name=$1 base=$2 clients=$3 threads=$(($3 < 2 ? $3 : 2)) protocol=${4:-extended}
  local ticks_before ticks_after
  ticks_before="$(server_ticks)"
  "$pgbench" -n -M "$protocol" -f "$here/pgbench/$name.sql" -c "$clients" -j "$threads" -T "$PGBENCH_SECONDS" \
    -D base="$base" -D v=0 -l --log-prefix="$work/log-$name-$clients" "$url" >"$work/out-$name-$clients" 2>&1 \
    || { cat "$work/out-$name-$clients" >&2; return 1; }
  ticks_after="$(server_ticks)"
  local transactions server_us
  transactions="$(awk '/^number of transactions actually processed: / { print $6; exit }' "$work/out-$name-$clients")"
  server_us="$(awk "BEGIN { print ($ticks_after - $ticks_before) / $(getconf CLK_TCK) * 1000000 / $transactions }")"
  local tps
  tps="$(awk '/^tps = / { print $3; exit }' "$work/out-$name-$clients")"
  cat "$work/log-$name-$clients".* | awk '{ print $3 }' | sort -n >"$work/latencies"
  local count p50 p99
  count="$(wc -l <"$work/latencies")"
  p50="$(sed -n "$((count / 2 + 1))p" "$work/latencies")"
  p99="$(sed -n "$(( count * 99 / 100 + 1 > count ? count : count * 99 / 100 + 1 ))p" "$work/latencies")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$clients" "$tps" "$(awk "BEGIN { print $p50 / 1000 }")" \
    "$(awk "BEGIN { print $p99 / 1000 }")" "$server_us" | tee -a "$work/pgbench.tsv"
}

echo "pgbench -M extended (fast and minimal: -M prepared) -c C -j min(C,2) -T $PGBENCH_SECONDS: name, clients, tps, p50 ms, p99 ms, server µs per transaction"
for name in cas locked fast minimal; do
  protocol=extended
  case $name in cas) base=7000 ;; locked) base=8000 ;; fast) base=9000 protocol=prepared ;; minimal) base=11000 protocol=prepared ;; esac
  for i in "${!levels[@]}"; do run_pgbench "$name" $((base + 100 * i)) "${levels[$i]}" "$protocol"; done
done
# Every locked transaction wrote its row and one history row: the versions add up to the history.
consistent="$(psql "$url" -Atc "SELECT (SELECT sum(sm_version) FROM toggles WHERE id BETWEEN 8000 AND 8299)
  = (SELECT count(*) FROM sm_transitions WHERE machine = 'toggles' AND entity_id::bigint BETWEEN 8000 AND 8299)")"
[ "$consistent" = t ] || { echo "pgbench locked.sql: versions and history rows differ" >&2; exit 1; }
consistent="$(psql "$url" -Atc "SELECT (SELECT sum(sm_version) FROM toggles WHERE id BETWEEN 11000 AND 11299)
  = (SELECT count(*) FROM sm_transitions WHERE machine = 'toggles' AND entity_id::bigint BETWEEN 11000 AND 11299)")"
[ "$consistent" = t ] || { echo "pgbench minimal.sql: versions and history rows differ" >&2; exit 1; }

"$bench" postgres --url "$url" --clients "$(echo "${levels[*]}" | tr ' ' ',')" --duration "$DURATION" \
  --warmup "$WARMUP" --rounds "$ROUNDS" --pgbench "$work/pgbench.tsv"
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
