#!/usr/bin/env bash
# Issue 23 round 3 on one GPU: the Barnes-Hut GPU tests, then the step time of barnes-hut against
# tiled2d from small N up (the crossover), and barnes-hut at 1M, 8.4M, 16.8M on a uniform cube,
# a Plummer sphere and a galaxy collision. An older binary (.devpack/nbody_old, when packed) runs
# the same rows for a same-machine comparison. Results under $OUT.
#   carry [".devpack"]; command "bash scripts/device_bh_round3.sh [quick|all]"
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-out/bh_round3}
mkdir -p "$OUT"
work=$(mktemp -d)
bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
B=$work/bin
export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L
old=.devpack/nbody_old
echo "== tests"
tests="test_cuda_barnes_hut test_cuda_kernels"
[ "${1:-}" = quick ] && tests=test_cuda_barnes_hut
for t in $tests; do
  timeout 300 "$B/$t" --gtest_brief=1 > "$OUT/$t.log" 2>&1
  echo "$t: rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" -A4 "$OUT/$t.log" | head -30
done
row() { # binary label args...
  local bin=$1 label=$2
  shift 2
  timeout 200 "$bin" bench "$@" 2>&1 | grep -E "^(barnes-hut|tiled2d)|phases" | sed "s/^/$label /"
}
echo "== small N: barnes-hut (new, old) and tiled2d, float, galaxy collision"
for n in 4096 16384 65536 262144; do
  row "$B/nbody" new --kernels barnes-hut,tiled2d --n $n --distribution galaxy-collision --steps 20 --repeats 5
  [ -x $old ] && row $old old --kernels barnes-hut --n $n --distribution galaxy-collision --steps 20 --repeats 5
done
[ "${1:-}" = quick ] && exit 0
echo "== crossover: barnes-hut and tiled2d, float, galaxy collision"
for n in 24576 32768 40960 49152; do
  row "$B/nbody" new --kernels barnes-hut,tiled2d --n $n --distribution galaxy-collision --steps 20 --repeats 5
done
echo "== group size at small N (barnes-hut, galaxy collision)"
row "$B/nbody" new --kernels barnes-hut --n 16384,65536 --group-size 32,64 --distribution galaxy-collision --steps 20 --repeats 5
echo "== large N: barnes-hut (new, old), float"
sizes="1048576 8388608"
[ "${1:-}" = all ] && sizes="1048576 8388608 16777216"
for d in cube plummer galaxy-collision; do
  for n in $sizes; do
    row "$B/nbody" new --kernels barnes-hut --n $n --distribution $d --steps 5 --repeats 3
    [ -x $old ] && row $old old --kernels barnes-hut --n $n --distribution $d --steps 5 --repeats 3
  done
done
