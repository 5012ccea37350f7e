#!/usr/bin/env bash
# Runs on the two-GPU machine (kind nvidia-h200-x2) from the repository root, with the binaries
# built elsewhere carried in build/bin and the GL runtime debs in .gl:
#   bash scripts/multigpu_device.sh [tests|bench|all]
# Writes logs, CSV and JSON under $OUT (default ./multigpu-out). NVLink multicast stays off.
set -u
what=${1:-all}
OUT=${OUT:-multigpu-out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export NCCL_NVLS_ENABLE=0
B=${BIN:-build/bin}
{
  nvidia-smi -L
  nvidia-smi topo -m
} >"$OUT/device.txt" 2>&1

if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in test_multigpu:90 test_cuda_kernels:45 test_cuda_barnes_hut:45; do
    s=${t#*:}
    t=${t%:*}
    [ -x "$B/$t" ] || continue
    timeout "$s" "$B/$t" --gtest_brief=1 >"$OUT/$t.log" 2>&1
    echo "$t rc=$?" | tee -a "$OUT/tests.txt"
    tail -5 "$OUT/$t.log"
  done
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  # all-pairs: where two GPUs start to beat one, then large N (a 4M step takes ~8 s on one GPU)
  timeout 60 "$B/nbody" bench --kernels tiled2d --gpus 1,2 \
    --n 4096,8192,16384,32768,65536,131072,262144 --steps 10 --repeats 3 --warmup 2 --budget 0.5 \
    --csv "$OUT/allpairs_small.csv" >"$OUT/allpairs_small.txt" 2>&1
  echo "allpairs_small rc=$?"
  timeout 120 "$B/nbody" bench --kernels tiled2d --gpus 1,2 --n 1048576,4194304 \
    --steps 1 --repeats 2 --warmup 1 --csv "$OUT/allpairs_large.csv" \
    >"$OUT/allpairs_large.txt" 2>&1
  echo "allpairs_large rc=$?"
  # Barnes-Hut at the defaults, uniform sphere and Plummer
  timeout 90 "$B/nbody" bench --kernels barnes-hut --gpus 1,2 --n 8388608,16777216 \
    --steps 3 --repeats 3 --warmup 1 --csv "$OUT/bh_sphere.csv" >"$OUT/bh_sphere.txt" 2>&1
  echo "bh_sphere rc=$?"
  if [ "${PLUMMER:-0}" = 1 ]; then
    timeout 60 "$B/nbody" bench --kernels barnes-hut --gpus 1,2 --n 8388608 \
      --distribution plummer --steps 3 --repeats 3 --warmup 1 --csv "$OUT/bh_plummer.csv" \
      >"$OUT/bh_plummer.txt" 2>&1
    echo "bh_plummer rc=$?"
  fi
fi
