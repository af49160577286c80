#!/usr/bin/env bash
# The search's costs on full explorations, one script for a quiet machine:
# on fischer N=10, csmacd N=11 and N=12, fddi N=13, mutex N=3 (the peer's
# instances) and the 5,000-location chain (`zeno bench --family chain`),
# one after the other, each run
#
#   bfs1     zeno check --search bfs --threads 1
#   bfs2     zeno check --search bfs --threads 2
#   default  zeno check            (greedy hU taking turns with BFS and
#                                   random restarts, docs/checker.md)
#
# with `--trace none --format json`, under GNU time. It prints one Markdown
# row per run (verdict, explored and stored states, which search decided,
# wall and CPU seconds, the share of a core used, peak resident memory),
# then per model the ratios the targets are about (default CPU / bfs1 CPU,
# bfs1 wall / bfs2 wall), and for the two-thread runs the parallel search's
# own counts (levels, widest level, slabs, successors batched and sent to
# another shard, phase wall times, busy and waiting worker time, serial
# time: `stats.parallel` of the JSON report), from which docs/checker.md
# models the scaling to more threads.
#
#   benches/scaling.sh PEER
#
# PEER is a directory holding `models/` (the peer instances described in
# docs/checker.md), e.g. `../shared/peer`. Each run is made REPEAT times
# (default 1); ratios use the fastest run of each kind. KEEP=FILE keeps
# the runs' figures (JSON lines). Set ZENO to use
# another binary (default: target/release/zeno, built here first). The
# load average is printed before and after: on a loaded machine, compare
# CPU times, not wall times.
set -euo pipefail

peer=${1:?usage: benches/scaling.sh PEER}
repeat=${REPEAT:-1}
if [ -z "${ZENO:-}" ]; then
    cargo build --release --quiet
    ZENO=target/release/zeno
fi
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ZENO" bench --family chain:5000 --emit "$tmp" 2>/dev/null

# file, labels ("-": the file's own check)
instances=(
    "$peer/models/fischer/fischer_10_10_10.tck cs1,cs2"
    "$peer/models/csmacd/csmacd_11_808_26_full.tck nvA,nvB"
    "$peer/models/csmacd/csmacd_12_808_26_full.tck nvA,nvB"
    "$peer/models/fddi/fddi_13_full.tck nvA,nvB"
    "$peer/models/mutex/mutex_3_1_2_lab.tck unsafe1,unsafe2"
    "$tmp/C5000.zeno -"
)
runs=(
    "bfs1 --search bfs --threads 1"
    "bfs2 --search bfs --threads 2"
    "default"
)

echo "cores: $(nproc); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| model | run | verdict | explored | stored | decided by | wall s | CPU s | cores used | peak RSS MB |"
echo "|---|---|---|---:|---:|---|---:|---:|---:|---:|"
: >"$tmp/rows"
for entry in "${instances[@]}"; do
    set -- $entry
    file=$1
    labels=$2
    name=$(basename "$file"); name=${name%.*}
    [ -f "$file" ] || { echo "| $name | missing: $file |"; continue; }
    extra=()
    [ "$labels" = - ] || extra=(--labels "$labels")
    for ((r = 0; r < repeat; r++)); do
        for run in "${runs[@]}"; do
            set -- $run
            kind=$1
            shift
            "$TIME" -o "$tmp/time" -f "%e %U %S %P %M" "$ZENO" check "$@" --trace none \
                "${extra[@]}" --format json "$file" >"$tmp/json" || true
            # GNU time writes a line about a non-zero exit status first.
            tail -n 1 "$tmp/time" >"$tmp/t"
            python3 - "$name" "$kind" "$tmp/json" "$tmp/t" >>"$tmp/rows" <<'EOF'
import json, sys
name, kind, js, t = sys.argv[1:]
wall, user, sys_, share, kb = open(t).read().split()
c = json.load(open(js))["files"][0]["checks"][0]
s = c["stats"]
print(json.dumps({"model": name, "run": kind, "verdict": c["verdict"],
    "explored": s["explored"], "stored": s["stored"],
    "decided_by": s.get("decided_by", ""), "wall": float(wall),
    "cpu": float(user) + float(sys_), "share": share, "rss": int(kb) / 1024,
    "parallel": s.get("parallel")}))
EOF
            tail -n 1 "$tmp/rows" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("| %(model)s | %(run)s | %(verdict)s | %(explored)d | %(stored)d | %(decided_by)s | %(wall).2f | %(cpu).2f | %(share)s | %(rss).1f |" % r)'
        done
    done
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -z "${KEEP:-}" ] || cp "$tmp/rows" "$KEEP"
echo
python3 - "$tmp/rows" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
models = list(dict.fromkeys(r["model"] for r in rows))
def best(m, kind, key):
    v = [r[key] for r in rows if r["model"] == m and r["run"] == kind]
    return min(v) if v else None
print("| model | default / bfs1 CPU | bfs1 / bfs2 wall (speed-up) | bfs2 / bfs1 CPU |")
print("|---|---:|---:|---:|")
for m in models:
    b1, d, b2 = best(m, "bfs1", "cpu"), best(m, "default", "cpu"), best(m, "bfs2", "cpu")
    w1, w2 = best(m, "bfs1", "wall"), best(m, "bfs2", "wall")
    f = lambda a, b: "%.2f×" % (a / b) if a is not None and b else "–"
    print("| %s | %s | %s | %s |" % (m, f(d, b1), f(w1, w2), f(b2, b1)))
print()
print("Two threads, the parallel search's counts (fastest run):")
print()
print("| model | levels | widest level | slabs | batched | cross-shard | expand wall s | expand busy s | insert wall s | insert busy s | wait s | serial s |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for m in models:
    runs = [r for r in rows if r["model"] == m and r["run"] == "bfs2" and r["parallel"]]
    if not runs:
        continue
    p = min(runs, key=lambda r: r["wall"])["parallel"]
    levels = p["level_states"]
    print("| %s | %d | %d | %d | %d | %d (%.0f%%) | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
        m, len(levels), max(levels or [0]), p["slabs"], p["batched"], p["cross_shard"],
        100 * p["cross_shard"] / max(p["batched"], 1), p["expand_seconds"],
        p["expand_busy_seconds"], p["insert_seconds"], p["insert_busy_seconds"],
        p["wait_seconds"], p["serial_seconds"]))
EOF
python3 - "$tmp/rows" <<'EOF2'
# The scaling model of docs/checker.md ("A model for more threads"), from
# the two-thread run's counts, which are CPU times and so hold on a loaded
# machine too: per level, slabs of 4,096 states; a slab's expansion is
# chunks of 64 states over p workers (the phase lasts ceil(chunks / p)
# chunks of the measured CPU time per state); its insertion is the slab's
# successors over 4p shards, taken by the workers as rayon hands them out,
# so the phase ends within one shard of the ideal (counted as half a shard
# more: 1/8 over the ideal); a slab of one chunk (64 states) runs on the
# calling thread alone, as the search does; each phase costs SYNC seconds to start and
# join (an assumption: 50 µs, not measured); the serial part (the calling
# thread's wall time outside the phases) does not shrink. Memory bandwidth
# and caches shared by more workers are not modelled.
import json, math, sys
SYNC = 50e-6
rows = [json.loads(l) for l in open(sys.argv[1])]
print()
print("Modelled wall seconds of the parallel search at p threads, from the")
print("two-thread run's CPU counts (speed-up over the sequential search, bfs1's")
print("CPU time, which on a quiet machine is its wall time):")
print()
print("| model | p = 1 | 2 | 4 | 8 | 16 |")
print("|---|---:|---:|---:|---:|---:|")
for m in dict.fromkeys(r["model"] for r in rows):
    two = [r for r in rows if r["model"] == m and r["run"] == "bfs2" and r["parallel"]]
    if not two:
        continue
    p2 = min(two, key=lambda r: r["cpu"])["parallel"]
    levels = p2["level_states"]
    explored = max(sum(levels), 1)
    per_state = p2["expand_busy_seconds"] / explored
    per_succ = p2["insert_busy_seconds"] / max(p2["batched"], 1)
    fanout = p2["batched"] / explored
    def slabs():
        for n in levels:
            while n > 0:
                k = min(n, 4096)
                yield k
                n -= k
    def model(p):
        t = p2["serial_seconds"]
        for k in slabs():
            insert = k * fanout * per_succ
            if k <= 64 or p == 1:
                # One chunk: expanded and inserted on the calling thread.
                t += k * per_state + insert
                continue
            t += math.ceil(math.ceil(k / 64) / p) * 64 * per_state
            t += insert / p + insert / (4 * p) / 2 + 2 * SYNC
        return t
    one = [r["cpu"] for r in rows if r["model"] == m and r["run"] == "bfs1"]
    t1 = min(one) if one else model(1)
    print("| %s | %s |" % (m, " | ".join("%.2f (%.1f×)" % (model(p), t1 / model(p)) for p in (1, 2, 4, 8, 16))))
EOF2
