#!/usr/bin/env bash
# The two-GPU machine's checks of the multi-GPU wrapper (kind nvidia-h100-x2 / nvidia-h200-x2),
# from the repository root with .devpack carried (scripts/device_pack.sh):
#   bash scripts/device_multigpu.sh [tests|bench|all]
# 1. test_multigpu (one process with 2 GPUs, ranks as threads, two CLI processes: bitwise)
# 2. two GPUs (and four where the host has them) against one: Barnes-Hut (uniform cube, Plummer)
#    and tiled2d, `nbody bench`
# 3. the same run as one process with --gpus 2 and as two processes (--rank/--world): ms/step
# Logs under $OUT (the device tool brings them back).
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
OUT=${OUT:-out/multigpu}
mkdir -p "$OUT"
trap 'tar -C "$OUT" -czf "$OUT/../multigpu_logs.tgz" . 2>/dev/null' EXIT
work=$(mktemp -d)
bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
B=$work/bin
export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0 NBODY_BINARY=$B/nbody
nvidia-smi -L | tee "$OUT/device.txt"
nvidia-smi topo -m >>"$OUT/device.txt" 2>&1

if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in test_multigpu:240 test_cuda_barnes_hut:90 test_cuda_external_field:60; do
    s=${t#*:}
    t=${t%:*}
    (cd "$work" && timeout "$s" "$B/$t" --gtest_brief=1 >"$OUT/$t.log" 2>&1)
    echo "$t rc=$?" | tee -a "$OUT/tests.txt"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|error|Expected|Which is|rank" "$OUT/$t.log" | head -30
  done
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  gpus=1,2
  [ "$(nvidia-smi -L | wc -l)" -ge 4 ] && gpus=1,2,4
  for d in cube plummer; do
    timeout 240 "$B/nbody" bench --kernels barnes-hut --gpus $gpus --n 1048576,8388608,16777216 \
      --distribution $d --steps 3 --repeats 3 --warmup 1 --csv "$OUT/bh_$d.csv" \
      >"$OUT/bh_$d.txt" 2>&1
    echo "bh_$d rc=$?"
    cat "$OUT/bh_$d.txt" | tail -8
  done
  timeout 180 "$B/nbody" bench --kernels tiled2d --gpus $gpus --n 262144,1048576,4194304 \
    --steps 1 --repeats 2 --warmup 1 --csv "$OUT/allpairs.csv" >"$OUT/allpairs.txt" 2>&1
  echo "allpairs rc=$?"
  tail -8 "$OUT/allpairs.txt"
  # one process with two GPUs against two processes of one GPU each
  run="$B/nbody simulate --scene plummer -n 4194304 --kernel barnes-hut --steps 40 --every 20 --no-diagnostics"
  $run --gpus 2 >"$OUT/cli_one_process.txt" 2>&1
  echo "one process rc=$?"
  id=$(mktemp -u)
  $run --world 2 --rank 1 --nccl-id "$id" >"$OUT/cli_rank1.txt" 2>&1 &
  p=$!
  $run --world 2 --rank 0 --nccl-id "$id" >"$OUT/cli_rank0.txt" 2>&1
  r0=$?
  wait $p
  echo "rank 0 rc=$r0 rank 1 rc=$?"
  for f in cli_one_process cli_rank0 cli_rank1; do echo "-- $f"; grep -E "ms/step|step " "$OUT/$f.txt" | tail -3; done
fi
