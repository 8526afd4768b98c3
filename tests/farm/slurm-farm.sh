#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The farm on a real Slurm cluster (docs/farm.md): starts one with scripts/slurm-local (and
# stops it whatever happens), makes a wedge of 4 variations of tests/farm/farm-smoke.plume
# (32^3, 12 frames, a flipbook), submits it with plume-cli farm submit (simulate array, render
# array of 3 chunks a variation, pack array), requeues one simulation task mid-bake from
# outside (scontrol requeue), signals another as its time limit would (scancel --signal=USR1
# --batch: it stops, requeues itself and resumes), waits, and checks that every variation's
# folder is byte-identical to a local plume-cli bake of it, that a render split over 3 tasks
# gives the flipbook of a single-process render, and that farm status says done. It prints the
# wedge's wall time on the cluster against the same bakes one after another.
# Usage: tests/farm/slurm-farm.sh PLUME_CLI WORK_DIR     (ctest: farm_slurm, label slurm)
# Without Slurm (or without root) it fails, saying why, unless PLUME_SKIP_SLURM=1 (then it
# exits 77: skipped).
set -euo pipefail

cli=${1:?usage: slurm-farm.sh PLUME_CLI WORK_DIR}
work=${2:?usage: slurm-farm.sh PLUME_CLI WORK_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)

say() { echo "slurm-farm: $*"; }
fail() {
    echo "slurm-farm: FAILED: $*" >&2
    if [ -d "$work/farm/.plume-farm/logs" ]; then
        for log in "$work"/farm/.plume-farm/logs/*.log; do
            echo "---- $log" >&2
            tail -n 15 "$log" >&2
        done
    fi
    exit 1
}

unavailable() {
    if [ "${PLUME_SKIP_SLURM:-0}" = 1 ]; then
        say "skipped: $1 (PLUME_SKIP_SLURM=1)"
        exit 77
    fi
    echo "slurm-farm: $1. scripts/setup installs Slurm (slurmctld slurmd slurm-client munge);" \
        "PLUME_SKIP_SLURM=1 skips this test" >&2
    exit 1
}
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$tool" >/dev/null || unavailable "Slurm is not installed ($tool missing)"
done
# The daemons run as root (munged as munge); the bakes run as whoever submits them.
as_root=()
if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || unavailable "the local Slurm cluster needs root or sudo without a password"
    as_root=(sudo -n)
fi
command -v python3 >/dev/null || fail "python3 is needed to edit the test scene"

rm -rf "$work"
mkdir -p "$work"
cluster=$work/cluster
trap '${as_root[@]+"${as_root[@]}"} "$src/scripts/slurm-local" stop "$cluster" >/dev/null 2>&1 || true' EXIT
${as_root[@]+"${as_root[@]}"} "$src/scripts/slurm-local" start "$cluster" >"$work/cluster-start.log" 2>&1 ||
    { cat "$work/cluster-start.log" >&2; fail "the cluster did not start"; }
export SLURM_CONF=$cluster/slurm.conf

# Renders run from the VDB cache (bake --from-cache --chunk); a build without them bakes a
# VDB-only wedge: the simulation job alone.
renders=0
case "$("$cli" bake --help 2>/dev/null || true)" in *--from-cache*) renders=1 ;; esac
mkdir -p "$work/scene"
scene=$work/scene/farm-smoke.plume
python3 - "$src/tests/farm/farm-smoke.plume" "$scene" "$renders" <<'EOF'
import json, sys
scene = json.load(open(sys.argv[1]))
scene["export"]["flipbook"]["enabled"] = sys.argv[3] == "1"
json.dump(scene, open(sys.argv[2], "w"), indent=4)
EOF

# The wedge: 4 values of the vorticity.
wedge=$work/wedge
values=(0.1 0.2 0.3 0.4)
if "$cli" wedge --help >/dev/null 2>&1; then
    "$cli" wedge "$scene" -o "$wedge" --vary "simulation.vorticity=$(IFS=,; echo "${values[*]}")" \
        >"$work/wedge.log" 2>&1 || { cat "$work/wedge.log" >&2; fail "plume-cli wedge"; }
else
    # A build without plume-cli wedge: the same files, written as docs/wedges.md describes.
    python3 - "$scene" "$wedge" "${values[@]}" <<'EOF'
import json, os, sys
source, folder, values = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(folder)
scene = json.load(open(source))
variations = []
for k, v in enumerate(values):
    scene["simulation"]["vorticity"] = float(v)
    name = "farm-smoke_w%d" % k
    json.dump(scene, open(os.path.join(folder, name + ".plume"), "w"), indent=4)
    variations.append({"index": k, "name": name, "scene": name + ".plume",
                       "values": {"simulation.vorticity": float(v)}})
json.dump({"format": "plume-wedge", "version": 1, "source": os.path.abspath(source),
           "keys": ["simulation.vorticity"], "random": None, "variations": variations},
          open(os.path.join(folder, "farm-smoke_wedge.json"), "w"), indent=2)
EOF
fi
manifest=$wedge/farm-smoke_wedge.json
[ -f "$manifest" ] || fail "no wedge manifest $manifest"

# The submission: 12 frames in render chunks of 4 (3 tasks a variation), a checkpoint every
# 2 frames, USR1 30 s before a 10-minute limit.
farm=$work/farm
start=$(date +%s%N)
"$cli" farm submit "$manifest" -o "$farm" --frames-per-task 4 --checkpoint-every 2 \
    --time 10:00 --signal-grace 30 >"$work/submit.log" 2>&1 ||
    { cat "$work/submit.log" >&2; fail "plume-cli farm submit"; }
cat "$work/submit.log"
job=$(sed -n 's/^simulate: job \([0-9]*\),.*/\1/p' "$work/submit.log")
[ -n "$job" ] || fail "no simulation job id in the submission's output"

# Seconds since $1 (date +%s%N), to a tenth.
seconds_since() {
    local ms=$((($(date +%s%N) - $1) / 1000000))
    printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100))
}
state() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
# Waits (up to $2 s) until the command $1 succeeds.
wait_for() {
    local what=$1 limit=$2 i
    for ((i = 0; i < limit * 10; i++)); do
        eval "$what" && return 0
        sleep 0.1
    done
    return 1
}
checkpointed() { [ -f "$farm/$1/.plume-bake/checkpoint.plumeckpt" ]; }
# A requeued task waits about two minutes before it may start again: release it now.
release() {
    wait_for '[ "$(state '"$1"')" = PENDING ]' 60 || fail "$1 did not return to the queue"
    scontrol update "JobId=$1" StartTime=now
}

# Task 0 requeued from outside, mid-bake, after a checkpoint.
wait_for '[ "$(state ${job}_0)" = RUNNING ] && checkpointed farm-smoke_w0' 120 ||
    fail "simulation task 0 did not start and checkpoint"
"$cli" farm status "$farm" >"$work/status-running.log" && fail "farm status said done mid-bake"
grep -q '^running$' "$work/status-running.log" || fail "farm status mid-bake: $(cat "$work/status-running.log")"
grep -q 'farm-smoke_w0  simulating .*resume record: checkpoint after' "$work/status-running.log" ||
    fail "farm status did not show task 0's checkpoint: $(cat "$work/status-running.log")"
scontrol requeue "${job}_0"
say "requeued ${job}_0 mid-bake"
release "${job}_0"

# Task 1 told its time limit is near: it stops, requeues itself and resumes.
wait_for '[ "$(state ${job}_1)" = RUNNING ] && checkpointed farm-smoke_w1' 120 ||
    fail "simulation task 1 did not start and checkpoint"
scancel --signal=USR1 --batch "${job}_1"
say "signalled ${job}_1 (USR1) before its time limit"
wait_for 'grep -q "^requeued" "$farm/.plume-farm/tasks/simulate.1" 2>/dev/null' 60 ||
    fail "simulation task 1 did not requeue itself: $(cat "$farm/.plume-farm/tasks/simulate.1" 2>/dev/null)"
release "${job}_1"

wait_for '[ -z "$(squeue -h -o %i)" ]' 300 || fail "the jobs did not finish: $(squeue)"
farm_seconds=$(seconds_since "$start")
"$cli" farm status "$farm" >"$work/status-done.log" ||
    { cat "$work/status-done.log" >&2; fail "farm status did not say done"; }
cat "$work/status-done.log"

# The logs tell the story: both continued from their record.
logs=$farm/.plume-farm/logs
grep -q 'restart 1.*--resume' "$logs/simulate.0.log" || fail "task 0 did not resume after its requeue"
grep -q 'requeueing' "$logs/simulate.1.log" || fail "task 1 did not requeue itself"
grep -q 'restart 1.*--resume' "$logs/simulate.1.log" || fail "task 1 did not resume"
grep -q '^resumed after frame [1-9]' "$logs/simulate.1.log" ||
    fail "task 1 did not continue from a checkpoint"

# The same bakes one after another, on one CPU like each farm task.
local_start=$(date +%s%N)
for k in 0 1 2 3; do
    name=farm-smoke_w$k
    extra=()
    [ "$renders" = 1 ] && extra=(--vdb) # the farm keeps the VDB cache next to the renders
    "$cli" bake "$wedge/$name.plume" -o "$work/local/$name" --threads 1 --quiet "${extra[@]}" ||
        fail "local bake of $name"
done
local_seconds=$(seconds_since "$local_start")
for k in 0 1 2 3; do
    name=farm-smoke_w$k
    diff -r "$work/local/$name" "$farm/$name" || fail "$name differs from a local bake"
done
say "4 variations byte-identical to local bakes"

if [ "$renders" = 1 ]; then
    # The flipbook rendered in 3 chunks on 3 tasks equals one rendered in one process.
    "$cli" bake "$wedge/farm-smoke_w2.plume" --from-cache "$farm/farm-smoke_w2" \
        -o "$work/single" --threads 2 --quiet || fail "single-process render from the cache"
    ls "$work/single"/farm-smoke_w2_flipbook* >/dev/null 2>&1 || fail "no flipbook in $work/single"
    for f in "$work/single"/farm-smoke_w2_flipbook*; do
        cmp "$f" "$farm/farm-smoke_w2/$(basename "$f")" || fail "$(basename "$f") differs"
    done
    say "a render split over 3 tasks equals a single-process render"
else
    say "plume-cli bake has no --from-cache: the VDB-only wedge (simulation job alone) was tested"
fi

say "wall time: the 4-variation wedge on the cluster ${farm_seconds} s (2 CPUs, one requeue" \
    "and one signalled stop, both released at once) against ${local_seconds} s baked one after" \
    "another"
say "passed"
