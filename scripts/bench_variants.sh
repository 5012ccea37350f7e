#!/usr/bin/env bash
# The kernel-variants lesson on the GPU machine: the GPU tests of the variants and of tiled's
# default path, then the `nbody bench` sweeps behind docs/PERFORMANCE.md's variants section
# (every variant at N = 4,096 and 65,536, one trick at a time at 1,048,576, the block-size and
# unroll curves). Builds nothing; each part has its own time limit so that a slow one cannot
# take the others with it.
#   scripts/bench_variants.sh [BIN_DIR] [OUT_DIR]
set -u
BIN=${1:-build/bin}
OUT=${2:-variants_out}
mkdir -p "$OUT"
B="$BIN/nbody bench --sample 256"

part() {  # part NAME SECONDS COMMAND...: runs COMMAND into $OUT/NAME.txt, notes rc and seconds
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$OUT/$name.txt" 2>&1
  echo "$name: rc=$? in $((SECONDS - t0)) s" | tee -a "$OUT/parts.txt"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/gpu.txt" 2>&1

# tests: every variant and pairwise-atomic vs the CPU oracle; tiled's default path unchanged
part test_cuda_variants 60 "$BIN/test_cuda_variants"
part test_cuda_kernels_tiled 45 "$BIN/test_cuda_kernels" \
  --gtest_filter='Kernels/GpuAccel.*tiled_*:GpuLargeN.*:GpuTable.*'

# every combination of tiled's variants and pairwise-atomic's reductions, with naive and tiled2d
# at their defaults, at 4,096 and 65,536 bodies
part sweep_small 60 $B --kernels naive,tiled,tiled2d,pairwise-atomic --variants --n 4096,65536 \
  --steps 10 --repeats 3 --warmup 2 --csv "$OUT/sweep_small.csv" --json "$OUT/sweep_small.json"

# one trick at a time at 1,048,576 (one timed step each; pairwise-atomic and masses=const are
# refused there: their rows say so)
L="--n 1048576 --steps 1 --repeats 1 --warmup 1"
part big_rsqrt 60 $B --kernels tiled $L --rsqrt fast,exact,powf,quake1,quake2 --json "$OUT/big_rsqrt.json"
part big_layout 30 $B --kernels tiled $L --layout aos3,soa --json "$OUT/big_layout.json"
part big_masses 30 $B --kernels tiled $L --masses const,ldg --json "$OUT/big_masses.json"
part big_ftz 20 $B --kernels tiled $L --ftz off --json "$OUT/big_ftz.json"
part big_others 30 $B --kernels naive,tiled2d,pairwise-atomic $L --json "$OUT/big_others.json"

# seed 004's block-size curve (naive and tiled) and seed 001's unroll factors (tiled)
part blocks 25 $B --kernels naive,tiled --n 4096,65536 --block-size 32,64,128,256,512,1024 \
  --steps 10 --repeats 3 --warmup 2 --json "$OUT/blocks.json"
part unroll 15 $B --kernels tiled --n 65536 --unroll 1,2,4,8 --steps 10 --repeats 3 --warmup 2 \
  --json "$OUT/unroll.json"
