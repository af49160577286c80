#!/usr/bin/env bash
# What the default search (`zeno check` with no order named: greedy hU
# taking turns with breadth-first search and random restarts,
# docs/checker.md) costs beyond `--search bfs --threads 1` on a small full
# exploration, where the fixed costs show: the peer's mutex N=3
# (`--labels unsafe1,unsafe2`, the property holds, 8,922 states explored,
# about 0.05 s), as benches/scaling.sh runs it, RUNS times each (default
# 20), the two alternating so that a change of load hits both alike.
#
#   benches/default_overhead.sh PEER
#
# PEER is a directory holding `models/` (e.g. `../shared/peer`). It prints,
# per kind, the sum over the runs of the process's CPU time (user + system
# of GNU time, 10 ms resolution per run, process start-up and parsing
# included) and of the check's own time (`time_seconds` of the JSON report,
# wall time of the search), then the default's ratios to breadth-first
# search. The target (issue 30): default / bfs CPU at most 1.25. Set ZENO
# to use another binary (default: target/release/zeno, built here first).
set -euo pipefail

peer=${1:?usage: benches/default_overhead.sh PEER}
runs=${RUNS:-20}
model="$peer/models/mutex/mutex_3_1_2_lab.tck"
[ -f "$model" ] || { echo "missing: $model" >&2; exit 2; }
if [ -z "${ZENO:-}" ]; then
    cargo build --release --quiet
    ZENO=target/release/zeno
fi
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "cores: $(nproc); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < runs; r++)); do
    for kind in bfs default; do
        args=()
        [ "$kind" = default ] || args=(--search bfs --threads 1)
        "$TIME" -o "$tmp/time" -f "%U %S" "$ZENO" check "${args[@]}" --trace none \
            --labels unsafe1,unsafe2 --format json "$model" >"$tmp/json" 2>/dev/null || true
        python3 - "$kind" "$tmp/json" "$tmp/time" >>"$tmp/rows" <<'EOF'
import json, sys
kind, js, t = sys.argv[1:]
# GNU time writes a line about a non-zero exit status first.
user, sys_ = open(t).read().split()[-2:]
c = json.load(open(js))["files"][0]["checks"][0]
assert c["verdict"] == "fails", c["verdict"]  # `--labels`: the labels are unreachable
print(kind, float(user) + float(sys_), c["stats"]["time_seconds"], c["stats"]["explored"])
EOF
    done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/rows" "$runs" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
total = {}
for kind, cpu, search, explored in rows:
    c, s = total.get(kind, (0.0, 0.0))
    total[kind] = (c + float(cpu), s + float(search))
b, d = total["bfs"], total["default"]
print()
print("| %s runs each | CPU s (sum) | check's own time s (sum) |" % sys.argv[2])
print("|---|---:|---:|")
print("| --search bfs --threads 1 | %.2f | %.3f |" % b)
print("| default | %.2f | %.3f |" % d)
print("| default / bfs | %.2f× | %.2f× |" % (d[0] / b[0], d[1] / b[1]))
EOF
