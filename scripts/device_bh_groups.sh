#!/usr/bin/env bash
# Issue 23 item 2 on one GPU: Barnes-Hut groups of 8 and 16 bodies (four and two lanes a body)
# against 32 and 64 from small N up, on a uniform cube, a Plummer sphere and a galaxy collision,
# and the crossover against tiled2d. Runs test_cuda_barnes_hut first. Results under $OUT.
#   carry [".devpack"]; command "bash scripts/device_bh_groups.sh [tests|bench|all]"
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-out/bh_groups}
mkdir -p "$OUT"
work=$(mktemp -d)
bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
B=$work/bin
export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L
mode=${1:-all}
if [ "$mode" != bench ]; then
  echo "== test_cuda_barnes_hut"
  timeout 400 "$B/test_cuda_barnes_hut" --gtest_brief=1 > "$OUT/test_cuda_barnes_hut.log" 2>&1
  echo "rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/test_cuda_barnes_hut.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" -A4 "$OUT/test_cuda_barnes_hut.log" | head -30
  grep -E "^group " "$OUT/test_cuda_barnes_hut.log"
fi
[ "$mode" = tests ] && exit 0
row() { # args...
  timeout 200 "$B/nbody" bench "$@" 2>&1 | grep -E "^(barnes-hut|tiled2d)"
}
echo "== group size 8/16/32/64 by N (barnes-hut, float, median of 5 x 20 steps)"
for d in cube plummer galaxy-collision; do
  echo "-- $d"
  row --kernels barnes-hut --n 4096,16384,65536,262144 --group-size 8,16,32,64 \
    --distribution $d --steps 20 --repeats 5
  row --kernels barnes-hut --n 1048576 --group-size 16,32,64 --distribution $d --steps 5 --repeats 3
done
echo "== crossover against tiled2d (galaxy collision, cube)"
for d in galaxy-collision cube; do
  row --kernels barnes-hut,tiled2d --n 8192,16384,24576,32768 --distribution $d --steps 20 --repeats 5
done
