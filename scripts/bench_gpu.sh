#!/usr/bin/env bash
# The standard GPU sweep of `nbody bench` (run it on the GPU machine), then the GPU section of
# docs/PERFORMANCE.md from its JSON (scripts/bench_gpu.py, stdlib python only).
#   scripts/bench_gpu.sh [BIN_DIR] [OUT_DIR] [DOC]
#   BIN_DIR  folder holding the nbody binary (default build/bin)
#   OUT_DIR  where the JSON, CSV and text logs go (default out/bench-gpu)
#   DOC      the document to update (default docs/PERFORMANCE.md; "-" = none)
set -uo pipefail
BIN=${1:-build/bin}
OUT=${2:-out/bench-gpu}
DOC=${3:-docs/PERFORMANCE.md}
HERE=$(cd "$(dirname "$0")" && pwd)
NB="$BIN/nbody"
mkdir -p "$OUT"
[ -x "$NB" ] || { echo "bench_gpu: no nbody binary at $NB" >&2; exit 2; }

# one bench run: NAME then bench arguments; output to NAME.txt/.json/.csv
run() {
  local name=$1
  shift
  echo "== $name: nbody bench $*"
  timeout 300 "$NB" bench --json "$OUT/$name.json" --csv "$OUT/$name.csv" "$@" 2>&1 |
    tee "$OUT/$name.txt" | sed -n '/^with speedup/,$p'
}

common=(--steps 10 --repeats 5 --warmup 2 --budget ${BENCH_BUDGET:-3})
# the three kernels side by side at their defaults, float and double
run std_float --kernels naive,tiled,tiled2d --precision float \
  --n 4096,16384,32768,65536,262144,1048576 "${common[@]}"
run std_double --kernels naive,tiled,tiled2d --precision double \
  --n 16384,65536,262144 "${common[@]}"
# block size and unroll of tiled (seed 000 Appendix 2 style)
run sweep_tiled --kernels tiled --precision float --n 16384,65536 \
  --block-size 64,128,256,512,1024 --unroll 1,2,4,8 "${common[@]}"
# block size, bodies per thread and j-splits of tiled2d
run sweep_tiled2d_small --kernels tiled2d --precision float --n 4096,16384,65536 \
  --block-size 64,128,256,512 --block-y 1,2,4,8 --luf 0,1,4,16,64 "${common[@]}"
# large N: the luf values around the auto rule's (6 to 64 waves of blocks)
run sweep_tiled2d_large --kernels tiled2d --precision float --n 262144,1048576 \
  --block-size 128,256 --block-y 4,8 --luf 0,1,16,64 "${common[@]}"
run sweep_tiled2d_double --kernels tiled2d --precision double --n 65536,262144 \
  --block-size 128,256 --block-y 1,2,3,4 --luf 0,4 "${common[@]}"

if [ "$DOC" != "-" ]; then
  /usr/bin/python3 "$HERE/bench_gpu.py" --doc "$DOC" "$OUT"/*.json
fi
