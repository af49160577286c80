#!/usr/bin/env bash
# Parallel breadth-first search against the sequential one and TChecker:
# `zeno check --search bfs --trace none --threads T` for each T, then
# `tck-reach -a covreach -s bfs`, one after the other on each instance,
# printing a Markdown table of explored (visited) states, stored states,
# wall time, CPU time (user + system), the share of one core used (GNU
# time's %P: 200% is two cores busy all along) and peak resident memory
# (%M). On a loaded machine the share says how many cores a run really got.
#
#   benches/parallel.sh PEER [THREADS...]
#
# PEER is a directory holding `tchecker/run.sh` and `models/` (the peer
# instances described in docs/checker.md); THREADS defaults to `1 2`, e.g.
# `benches/parallel.sh ../shared/peer 1 2 4 8 16` on a 16-core machine.
# Each run is made REPEAT times (default 1; `REPEAT=3 benches/...`) and
# every run is printed, so noise shows. Set ZENO to use another binary
# (default: target/release/zeno, built here first).
set -euo pipefail

peer=${1:?usage: benches/parallel.sh PEER [THREADS...]}
shift
threads=("${@:-1}")
if [ $# -eq 0 ]; then threads=(1 2); fi
repeat=${REPEAT:-1}
if [ -z "${ZENO:-}" ]; then
    cargo build --release --quiet
    ZENO=target/release/zeno
fi
TIME=/usr/bin/time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time) is needed for peak memory" >&2; exit 2; }

# instance, labels
instances=(
    "fischer/fischer_10_10_10.tck cs1,cs2"
    "csmacd/csmacd_11_808_26_full.tck nvA,nvB"
)

echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| model | tool | threads | verdict | explored | stored | time (s) | CPU (s) | cores used | peak RSS (MB) |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|"
for entry in "${instances[@]}"; do
    set -- $entry
    file=$peer/models/$1
    labels=$2
    name=$(basename "$file" .tck)
    for ((r = 0; r < repeat; r++)); do
        for t in "${threads[@]}"; do
            "$TIME" -o "$tmp/time" -f "%e %U %S %P %M" "$ZENO" check --search bfs --trace none \
                --threads "$t" --labels "$labels" --format json "$file" >"$tmp/json" || true
            read -r verdict explored stored used < <(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["files"][0]["checks"][0]
s = c["stats"]
print(c["verdict"], s["explored"], s["stored"], s["threads"])' "$tmp/json")
            # GNU time writes a line about a non-zero exit status first.
            read -r secs user sys share kb < <(tail -n 1 "$tmp/time")
            printf '| %s | zeno | %s | %s | %s | %s | %s | %.2f | %s | %.1f |\n' \
                "$name" "$used" "$verdict" "$explored" "$stored" "$secs" \
                "$(echo "$user + $sys" | bc -l)" "$share" "$(echo "$kb / 1024" | bc -l)"
        done
        if [ -x "$peer/tchecker/run.sh" ]; then
            tck=$("$TIME" -o "$tmp/time" -f "%e %U %S %P %M" "$peer/tchecker/run.sh" tck-reach \
                -a covreach -s bfs -l "$labels" "$file" 2>/dev/null || true)
            reach=$(printf '%s\n' "$tck" | awk '/^REACHABLE/ {print $2}')
            visited=$(printf '%s\n' "$tck" | awk '/^VISITED_STATES/ {print $2}')
            tstored=$(printf '%s\n' "$tck" | awk '/^STORED_STATES/ {print $2}')
            # GNU time writes a line about a non-zero exit status first.
            read -r secs user sys share kb < <(tail -n 1 "$tmp/time")
            printf '| %s | tck-reach | 1 | reachable=%s | %s | %s | %s | %.2f | %s | %.1f |\n' \
                "$name" "$reach" "$visited" "$tstored" "$secs" \
                "$(echo "$user + $sys" | bc -l)" "$share" "$(echo "$kb / 1024" | bc -l)"
        fi
    done
done
