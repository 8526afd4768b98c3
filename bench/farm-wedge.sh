#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wall time of a 4-variation wedge on the local Slurm cluster (scripts/slurm-local) against
# the same bakes one after another on this machine (docs/farm.md, "What it costs"): plume-3d at
# RESOLUTION cells and FRAMES frames with a 96x96 4x4 flipbook, its vorticity wedged over 0, 0.5,
# 1.5 and 4; the farm's folders are checked identical to the local ones. Needs root (the
# cluster's daemons) and Slurm (scripts/setup installs it).
# Usage: bench/farm-wedge.sh [RESOLUTION] [FRAMES]        (default 80 96; run from the checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
cli=$src/build/bin/plume-cli
resolution=${1:-80}
frames=${2:-96}
work=$(mktemp -d)
cd "$work"
python3 - "$src" "$resolution" "$frames" <<'PY'
import json, sys
src, resolution, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = json.load(open(f"{src}/resources/scenes/plume-3d.plume"))
s["domain"]["resolution"] = resolution
s["simulation"]["frameEnd"] = frames
flipbook = s.setdefault("export", {}).setdefault("flipbook", {})
flipbook.update({"enabled": True, "rows": 4, "columns": 4})
flipbook.pop("first", None)
flipbook.pop("last", None)
s["export"].setdefault("render", {}).update({"width": 96, "height": 96})
json.dump(s, open("plume.plume", "w"), indent=2)
PY
"$cli" wedge plume.plume -o wedge --vary simulation.vorticity=0,0.5,1.5,4 --quiet
"$src/scripts/slurm-local" start "$work/cluster" >/dev/null
trap '"$src/scripts/slurm-local" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export SLURM_CONF=$work/cluster/slurm.conf
t0=$(date +%s.%N)
"$cli" farm submit wedge/plume_wedge.json -o farm --frames-per-task $((frames / 4)) \
    --checkpoint-every 8 --cpus-per-task 1 >/dev/null
while [ -n "$(squeue -h)" ]; do sleep 1; done
t1=$(date +%s.%N)
t2=$(date +%s.%N)
for k in 0 1 2 3; do
    "$cli" bake "wedge/plume_w$k.plume" -o "local/plume_w$k" --vdb --quiet --threads 2
done
t3=$(date +%s.%N)
for k in 0 1 2 3; do
    diff -r "farm/plume_w$k" "local/plume_w$k" >/dev/null || { echo "w$k differs" >&2; exit 1; }
done
python3 -c "print('farm-wedge: %d^3, %d frames: cluster %.1f s, one after another (2 threads each) %.1f s, folders identical' % ($resolution, $frames, $t1 - $t0, $t3 - $t2))"
