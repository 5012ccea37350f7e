#!/usr/bin/env bash
# Short GPU run for docs/GALAXIES.md (issue 24), from the pack of scripts/device_pack.sh: the
# Toomre & Toomre presets at 200,000 bodies drawn at the papers' times from the papers'
# directions, and the isolated disk galaxy with a live halo for 1 Gyr at 65,536 and 1,048,576
# bodies (thickness and v/sigma from the structure lines). Run after or instead of
# device_check.sh; carry [".devpack"]. Results under $OUT/galaxies.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
R=$OUT/galaxies
mkdir -p "$R"
work=$(mktemp -d)
bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
B=$work/bin
export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for f in /usr/share/glvnd/egl_vendor.d/10_nvidia.json \
  /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$f" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$f
done
echo "== Toomre & Toomre presets (1 Antennae, 2 Mice, 3 M51, 4 ring galaxy), N = 200,000"
for p in 1 2 3 4; do
  timeout 45 "$B/nbody" render --scene toomre -n 200000 --param preset=$p --kernel barnes-hut \
    --png-every 0 --no-energy --width 1280 --height 960 --out "$R/toomre_preset$p" 2>&1 | tail -2
done
echo "== isolated disk galaxy, live halo, 1 Gyr (2050 steps of 0.49 Myr), barnes-hut float"
for n in 65536 1048576; do
  echo "-- N $n"
  timeout 90 "$B/nbody" simulate --scene disk-galaxy -n "$n" --param halo=0 \
    --kernel barnes-hut --steps 2050 --every 410 2>&1 | grep -E "^ +[0-9]+ |galaxy:|^structure" |
    tail -14
done
