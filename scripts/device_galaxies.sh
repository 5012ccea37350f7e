#!/usr/bin/env bash
# One run on the GPU machine for issues 11 and 24 (galaxies): the rigid-halo GPU tests, the
# isolated disk galaxy for 1 Gyr with a live and a rigid halo at large N (docs/GALAXIES.md), the
# default collision run and frames with both halos, and the Toomre presets each drawn at its
# paper's time from its paper's direction (the scene's run length and default camera), and the
# collision's bridge at 1M (test_galaxy_collision's DISABLED_BridgeAtLargeN). Binaries (nbody
# and the tests named) come prebuilt in build-dev/bin.
#   carry: [".gl", "build-dev"]; bash scripts/device_galaxies.sh
set -u
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
ldconfig
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
B=build-dev/bin
OUT=${OUT:-out}
mkdir -p "$OUT"
nvidia-smi -L
echo "== tests"
for t in test_cuda_external_field test_cuda_barnes_hut; do
  timeout 300 "$B/$t" --gtest_brief=1 > "$OUT/$t.log" 2>&1
  echo "$t: rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E -A4 "Failure" "$OUT/$t.log" | head -20
done
echo "== isolated disk galaxy, 1 Gyr (2050 steps of 0.49 Myr), barnes-hut float, defaults"
for run in "0 65536" "0 262144" "0 1048576" "1 65536" "1 1048576" "2 1048576"; do
  set -- $run
  echo "-- halo $1, N $2"
  timeout 200 "$B/nbody" simulate --scene disk-galaxy -n "$2" --param halo="$1" \
    --kernel barnes-hut --steps 2050 --every 410 2>&1 | grep -E "^ +[0-9]+ |galaxy:|^structure" |
    tail -14
done
echo "== collision with defaults (duration from the orbit), 1M, barnes-hut"
for h in 0 1; do
  echo "-- halo $h"
  timeout 200 "$B/nbody" simulate --scene galaxy-collision -n 1048576 --param halo=$h \
    --kernel barnes-hut --every 100000 2>&1 | grep -E "running|^structure|ms/step" | tail -4
  timeout 200 "$B/nbody" render --scene galaxy-collision -n 1048576 --param halo=$h \
    --kernel barnes-hut --png-every 40 --out "$OUT/collision_halo$h" 2>&1 | tail -2
done
echo "== Toomre & Toomre presets at the papers' times (1 Antennae, 2 Mice, 3 M51, 4 ring galaxy)"
for p in 1 2 3 4; do
  timeout 200 "$B/nbody" render --scene toomre -n 200000 --param preset=$p --kernel barnes-hut \
    --png-every 0 --no-energy --width 1280 --height 960 --out "$OUT/toomre_preset$p" 2>&1 | tail -2
done
echo "== live-halo collision: frames through the first passage (bridge), 1M bodies"
timeout 200 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut \
  --frames 120 --png-every 10 --no-energy --out "$OUT/collision_bridge" 2>&1 | tail -2
echo "== the bridge 40 Myr after the first pericentre, 1M, live halos (issue 24 item 3): the"
echo "   default (galaxy 2 at 30 deg) and the former 60 deg, counted against undisturbed disks"
for t in 30 60; do
  NBODY_BRIDGE_TILT2=$t timeout 300 "$B/test_galaxy_collision" --gtest_also_run_disabled_tests \
    --gtest_filter='*BridgeAtLargeN' 2>&1 | grep -E "N = |OK|FAILED|Failure" -A1 | head -8
done
echo "== the same at 211 Myr in the default view (960 x 540), 1M, live halos"
timeout 200 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut \
  --steps-per-frame 1 --frames 432 --png-every 0 --no-energy --width 960 --height 540 \
  --out "$OUT/collision_211myr" 2>&1 | tail -2
