#!/usr/bin/env bash
# Seed 003's experiment, reproducible: one Earth year (365.25 d) of the solar system with every
# JPL SBDB body Debian's kstars-data ships (7,098 asteroids + 3,768 comets) at dt = 1 hour,
# 8,766 steps, once per kernel given, each final state written to a CSV; then the largest
# final-position difference of each kernel against the first one.
#   bash scripts/seed003_solar_year.sh [KERNEL...]        (default: cpu-openmp)
# Environment: NBODY (the binary, default build/bin/nbody), STEPS (default 8766; fewer for a
# timing sample), MASSLESS=1 (small bodies as test particles: O(N x 11) instead of O(N^2)),
# PRECISION (default double), OUT (default seed003-out), JD (default 2459800.5, the asteroids'
# element epoch).
set -euo pipefail
cd "$(dirname "$0")/.."
nbody=${NBODY:-build/bin/nbody}
steps=${STEPS:-8766}
out=${OUT:-seed003-out}
jd=${JD:-2459800.5}
precision=${PRECISION:-double}
kernels=("$@")
[ ${#kernels[@]} -eq 0 ] && kernels=(cpu-openmp)
extra=()
[ "${MASSLESS:-0}" = 1 ] && extra+=(--small-bodies-massless)
mkdir -p "$out"
for k in "${kernels[@]}"; do
  echo "== $k: $steps steps of 1 h"
  start=$(date +%s.%N)
  "$nbody" simulate --scene solar-system --param jd="$jd" \
    --small-bodies /usr/share/kstars/asteroids.dat,/usr/share/kstars/comets.dat "${extra[@]}" \
    --kernel "$k" --precision "$precision" --integrator leapfrog --dt 0.041666666666666664 \
    --steps "$steps" --every "$steps" -o "$out/$k.csv"
  end=$(date +%s.%N)
  echo "$k: wall $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
done
# final positions against the first kernel's
if [ ${#kernels[@]} -gt 1 ]; then
  python3 - "$out" "${kernels[@]}" <<'PY'
import csv, math, sys
out, ks = sys.argv[1], sys.argv[2:]
def rows(k):
    with open(f"{out}/{k}.csv") as f:
        return [r for r in csv.reader(l for l in f if not l.startswith("#"))][1:]
ref = rows(ks[0])
for k in ks[1:]:
    d = max(math.dist(map(float, a[:3]), map(float, b[:3])) for a, b in zip(ref, rows(k)))
    print(f"{k} vs {ks[0]}: largest final-position difference {d:.3e} AU")
PY
fi
