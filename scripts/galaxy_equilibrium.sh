#!/usr/bin/env bash
# The live-halo equilibrium check of issue 24 item 1 (docs/GALAXIES.md): the isolated
# disk-galaxy with its live halo for 1 Gyr with `nbody simulate`, the disk's thickness (median |z|
# about its own mid-plane) and v/sigma from the run's own structure report, against the targets
# (thickness <= 1.2x at 65,536 and <= 1.05x at 1,048,576 after 1 Gyr).
#
# Usage: scripts/galaxy_equilibrium.sh [NBODY]
#   NBODY    the program (default: build/bin/nbody; else, with a .devpack from
#            scripts/device_pack.sh, the packed one)
#   NS       the body counts (default "65536 1048576")
#   KERNEL   the force kernel (default barnes-hut, the GPU's; cpu-barnes-hut on a CPU build)
#   DURATION the span (default 1Gyr); SEED the scene's seed (default 1)
#   HALO     0 = live halo (default), 1 = rigid halo
#   ARGS     more options of `nbody simulate` (e.g. "--theta 0.3" or "--dt 0.00025"); TAG names
#            the variant in the log's name and the result line
# On the GPU machine with the device tool: carry [".devpack"], command
#   bash scripts/galaxy_equilibrium.sh
# Each line "N ... thickness a -> b (x), v/sigma c -> d (y)" is one run; the full logs go to
# $OUT/galaxy_equilibrium (or ./out/galaxy_equilibrium).
set -u
cd "$(dirname "$0")/.."
nbody=${1:-}
if [ -z "$nbody" ]; then
  if [ -x build/bin/nbody ]; then
    nbody=build/bin/nbody
  elif [ -f .devpack/bin.tar.xz ]; then
    work=$(mktemp -d)
    bash scripts/unpack_xz.sh .devpack/bin.tar.xz "$work"
    export LD_LIBRARY_PATH=$PWD/.devpack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    nbody=$work/bin/nbody
  else
    echo "galaxy_equilibrium: no build/bin/nbody and no .devpack (give the program)" >&2
    exit 1
  fi
fi
ns=${NS:-65536 1048576}
kernel=${KERNEL:-barnes-hut}
duration=${DURATION:-1Gyr}
seed=${SEED:-1}
halo=${HALO:-0}
args=${ARGS:-}
tag=${TAG:-}
logs=${OUT:-out}/galaxy_equilibrium
mkdir -p "$logs"
status=0
for n in $ns; do
  name=$([ "$halo" = 0 ] && echo live || echo rigid)
  log=$logs/disk_galaxy_${name}_$n${tag:+_$tag}.txt
  # about 20 structure reports over the run (dt 0.49 Myr: 2,050 steps a Gyr)
  # shellcheck disable=SC2086 # ARGS holds several options
  "$nbody" simulate --scene disk-galaxy -n "$n" --param halo="$halo" --seed "$seed" \
    --kernel "$kernel" --duration "$duration" --every 103 $args >"$log" 2>&1 || status=1
  line=$(grep -E "^structure:" "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "N $n: no structure line (see $log)"
    tail -3 "$log"
    status=1
    continue
  fi
  awk -v n="$n" -v k="$kernel${tag:+ $tag}, $name halo" -v d="$duration" '
    /^structure:/ {
      for (i = 1; i <= NF; ++i) {
        if ($i == "thickness") { t0 = $(i + 1); t1 = $(i + 3) }
        if ($i == "v/sigma") { v0 = $(i + 1); v1 = $(i + 3) }
      }
    }
    END {
      printf "N %d, %s, %s: thickness %s -> %s kpc (%.3fx), v/sigma %s -> %s (%.3fx)\n",
             n, k, d, t0, t1, t1 / t0, v0, v1, v1 / v0
    }' "$log"
  grep -E "disk thickness" "$log" | sed -n '1p;$p' | sed 's/^ */    /'
done
exit $status
