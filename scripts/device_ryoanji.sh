#!/usr/bin/env bash
# Issue 23 item 1: Ryoanji's Barnes-Hut demo and ours side by side on one GPU, uniform cube of
# 2^k - 1 bodies (k = 20, 23, 24). Ryoanji: build it here first with
# ../shared/peers/build_peer_ryoanji.sh (writes lab/rbin/ryoanji_demo; it prints its build,
# upsweep and force per step after a warm-up). Ours: the whole step with integration, at
# bmax θ 0.55 and 0.58 (leaf 32, group 64) and at the defaults.
#   carry [".devpack", "lab/rbin"]; command "bash scripts/device_ryoanji.sh" (~6 minutes: Ryoanji
#   sets up 2^24 - 1 bodies on the host for ~4 of them). Results under $OUT.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-out/ryoanji}
mkdir -p "$OUT"
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
work=$(mktemp -d)
bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
B=$work/bin
export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv | tee "$OUT/device.txt"
for n in 1048575 8388607 16777215; do
  timeout 100 "$B/nbody" bench --kernels barnes-hut --distribution cube --n $n --steps 5 \
    --repeats 3 --sample 1024 --leaf-size 32 --group-size 64 --opening bmax --theta 0.55,0.58 \
    --csv "$OUT/ours_$n.csv" >"$OUT/ours_$n.txt" 2>&1
  echo "ours $n rc=$?"
  grep -E "^barnes|phases" "$OUT/ours_$n.txt" | head -4
  timeout 100 "$B/nbody" bench --kernels barnes-hut --distribution cube --n $n --steps 5 \
    --repeats 3 --sample 1024 --csv "$OUT/ours_defaults_$n.csv" >"$OUT/ours_defaults_$n.txt" 2>&1
  echo "ours (defaults) $n rc=$?"
  grep -E "^barnes|phases" "$OUT/ours_defaults_$n.txt" | head -2
done
if [ ! -x lab/rbin/ryoanji_demo ]; then
  echo "lab/rbin/ryoanji_demo missing: build it with ../shared/peers/build_peer_ryoanji.sh"
  exit 1
fi
for p in 20 23 24; do
  s=$(date +%s)
  timeout 300 stdbuf -oL lab/rbin/ryoanji_demo $p >"$OUT/ryoanji_$p.txt" 2>&1
  echo "ryoanji 2^$p-1 rc=$? in $(($(date +%s) - s)) s"
  grep -E "PHASES" "$OUT/ryoanji_$p.txt" | tail -3
done
