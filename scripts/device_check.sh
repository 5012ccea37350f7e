#!/usr/bin/env bash
# The GPU machine's part of the test suite: one run that checks what CI (no GPU, Mesa) cannot.
#   1. every GPU and GL test binary (the multi-GPU tests where there are 2+ GPUs)
#   2. `nbody render` of every scene (solar-system, galaxy-collision, disk-galaxy, toomre,
#      plummer, a loaded file) in every look (HDR, 8-bit, glow, trails, tree cells, map overlay)
#      with a GL debug context; each picture checks itself: bodies in view but no lit pixel, or
#      the light far from the bodies, fails
#   3. time to first frame (process start to the first finished frame) and frame time
#   4. the 1M-body galaxy collision with Barnes-Hut at 1,920x1,080: frames/s and its PNGs
#   5. a few bench rows (tiled, tiled2d, barnes-hut) with their error against the reference
# One verdict line per item (PASS/FAIL/SKIP) at the end and in $OUT/verdicts.txt; logs, PNGs and
# summaries under $OUT. Exit status 1 when anything failed.
#
# On your machine:  NBODY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90" bash scripts/dev.sh build
#                   bash scripts/device_pack.sh
# With the device tool: carry [".devpack"], command "bash scripts/device_check.sh".
# A change to render/, shaders/, app/ or sim/cuda/ is done only when this passed there and
# the PNGs were looked at.
set -u
cd "$(dirname "$0")/.."
# results go to $R and, packed, to $OUT/device_check.tgz (the device tool brings back few files)
OUT=${OUT:-out/device_check}
mkdir -p "$OUT"
R=$(mktemp -d)/device_check
mkdir -p "$R"
pack=.devpack
[ -f $pack/bin.tar.xz ] || { echo "device_check: no $pack/bin.tar.xz (run scripts/device_pack.sh)"; exit 2; }
work=$(mktemp -d)
bash scripts/unpack_xz.sh $pack/bin.tar.xz "$work"
tar -C "$work" -xzf $pack/sky.tgz
B=$work/bin
export LD_LIBRARY_PATH=$PWD/$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0
export NBODY_BINARY=$B/nbody  # tests that run the CLI (test_multigpu's two processes)
for f in /usr/share/glvnd/egl_vendor.d/10_nvidia.json \
  /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$f" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$f
done
# the sky's data where the program looks for it
mkdir -p /usr/share/libswe/ephe /usr/share/kstars 2>/dev/null
cp "$work"/sky/*.se1 "$work"/sky/seleapsec.txt /usr/share/libswe/ephe/ 2>/dev/null
cp "$work"/sky/*.dat /usr/share/kstars/ 2>/dev/null

verdicts=$R/verdicts.txt
: >"$verdicts"
failed=0
verdict() {  # verdict PASS|FAIL|SKIP item detail
  printf "%-4s  %-46s %s\n" "$1" "$2" "$3" | tee -a "$verdicts"
  [ "$1" = FAIL ] && failed=$((failed + 1))
  return 0
}

gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
echo "== device: $gpus GPU(s)"
nvidia-smi -L
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
missing=$(ldd "$B/nbody" | grep "not found")
[ -n "$missing" ] && { echo "device_check: missing libraries: $missing"; exit 2; }

echo "== 1. GPU and GL tests"
for t in test_cuda_kernels test_cuda_variants test_cuda_barnes_hut test_cuda_bh_relative test_cuda_bh_local \
  test_cuda_bh_refit \
  test_cuda_activity_map \
  test_cuda_external_field test_sky_gpu test_kernels test_kernel_compare test_cpu_barnes_hut \
  test_sim_runner test_interop test_headless test_cell_boxes test_sim_runner_edit \
  test_viewer_edit test_simulation_edit test_multigpu; do
  [ -x "$B/$t" ] || { verdict FAIL "test $t" "not in the pack"; continue; }
  if [ "$t" = test_multigpu ] && [ "$gpus" -lt 2 ]; then
    verdict SKIP "test $t" "$gpus GPU: needs 2 (kind nvidia-h200-x2)"
    continue
  fi
  start=$(date +%s.%N)
  (cd "$R" && timeout 540 "$B/$t" --gtest_brief=1 >"$t.log" 2>&1)
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
  passed=$(grep -oE "^\[  PASSED  \] [0-9]+" "$R/$t.log" | grep -oE "[0-9]+$")
  skipped=$(grep -oE "^\[  SKIPPED \] [0-9]+" "$R/$t.log" | grep -oE "[0-9]+$")
  nfail=$(grep -cE "^\[  FAILED  \] [A-Za-z]" "$R/$t.log")
  detail="${passed:-0} passed, $nfail failed, ${skipped:-0} skipped ($secs s)"
  if [ $rc -eq 0 ] && [ "$nfail" -eq 0 ]; then
    verdict PASS "test $t" "$detail"
  else
    verdict FAIL "test $t" "rc $rc, $detail; see $t.log"
    grep -E "^\[  FAILED  \] [A-Za-z]" "$R/$t.log" | head -5
  fi
done
# the look test writes the frames it rejected here
cp /tmp/nbody_look_*.png "$R/" 2>/dev/null

echo "== 2. render: every scene in every look (GL debug context, picture checked)"
# a file to load: a Plummer sphere written by the program itself
"$B/nbody" simulate --scene plummer -n 8192 --steps 1 --no-diagnostics -o "$R/loaded.csv" \
  >/dev/null 2>&1
render_check() {  # render_check NAME min_lit max_offset nbody-render-args...
  local name=$1 min_lit=$2 max_off=$3
  shift 3
  local dir=$R/render/$name
  mkdir -p "$dir"
  timeout 300 "$B/nbody" render "$@" --gl-debug --png-every 0 --out "$dir" >"$dir/log.txt" 2>&1
  local rc=$?
  local pic first frame lit off
  pic=$(grep "^picture:" "$dir/log.txt")
  first=$(grep -oE "first frame [0-9.]+ s" "$dir/log.txt" | grep -oE "[0-9.]+")
  frame=$(grep -oE "[0-9.e+]+ ms/frame" "$dir/log.txt" | head -1)
  lit=$(echo "$pic" | grep -oE "^picture: [0-9]+" | grep -oE "[0-9]+")
  off=$(grep -oE '"offset_of_width": -?[0-9.e+-]+' "$dir/summary.json" 2>/dev/null |
    grep -oE -- "-?[0-9.e+-]+$")
  local detail="lit ${lit:-?}, light-bodies offset ${off:-?} of width, first frame ${first:-?} s, ${frame:-?}"
  if [ $rc -ne 0 ]; then
    verdict FAIL "render $name" "rc $rc ($(grep -E "error|nbody render:" "$dir/log.txt" | grep -v "^nbody render: EGL" | head -2 | tr '\n' ' ')) $detail"
  elif [ -z "$lit" ] || [ "$lit" -lt "$min_lit" ]; then
    verdict FAIL "render $name" "too few lit pixels: $detail"
  elif [ -n "$off" ] && awk -v o="$off" -v m="$max_off" 'BEGIN { exit !(o > m) }'; then
    verdict FAIL "render $name" "light away from the bodies: $detail"
  else
    verdict PASS "render $name" "$detail"
  fi
  # the last frame, for looking at
  local png
  png=$(ls "$dir"/frame_*.png 2>/dev/null | tail -1)
  [ -n "$png" ] && cp "$png" "$R/render_$name.png"
}
W="--width 960 --height 540"
declare -A scene_args=(
  [solar-system]="--scene solar-system"
  [galaxy-collision]="--scene galaxy-collision -n 65536"
  [disk-galaxy]="--scene disk-galaxy -n 65536"
  [toomre]="--scene toomre -n 65536"
  [plummer]="--scene plummer -n 16384"
  [loaded-file]="--load $R/loaded.csv"
)
for s in solar-system galaxy-collision disk-galaxy toomre plummer loaded-file; do
  a=${scene_args[$s]}
  # the light of planets sits on the Sun and the labelled bodies: a looser centre check there
  off=0.12
  [ "$s" = solar-system ] && off=0.45
  render_check "$s.hdr" 200 $off $a $W --frames 6
  render_check "$s.8bit" 200 $off $a $W --frames 6 --no-hdr
  render_check "$s.glow" 200 $off $a $W --frames 6 --glow
  render_check "$s.trails" 200 $off $a $W --frames 30 --trails
  render_check "$s.map" 200 0.45 $a $W --frames 6 --map
  render_check "$s.tree" 200 0.45 $a $W --frames 6 --kernel barnes-hut --tree-cells 3
done

# tonight's sky with the JPL small bodies (test particles but for the four largest), the
# planets' orbits and the date, scale bar and a caption burned in
render_check solar-small-bodies.burn-in 50 0.45 --scene solar-system \
  --small-bodies /usr/share/kstars/asteroids.dat,/usr/share/kstars/comets.dat $W --frames 30 \
  --burn-in date,scale,caption --caption "Tonight's sky: 10,867 small bodies"

echo "== 3. time to first frame and frame time"
render_check first-frame.default 200 0.2 --frames 1
render_check first-frame.plummer 200 0.12 --scene plummer -n 65536 --frames 60 --width 1280 --height 720
render_check first-frame.solar 50 0.45 --scene solar-system --frames 60 --width 1280 --height 720

echo "== 4. 1M-body galaxy collision, Barnes-Hut, 1920x1080"
render_check collision-1M.fps 10000 0.2 --scene galaxy-collision -n 1048576 --kernel barnes-hut \
  --frames 300 --no-energy --width 1920 --height 1080
fps=$(grep -oE '"fps": [0-9.]+' "$R/render/collision-1M.fps/summary.json" 2>/dev/null | grep -oE "[0-9.]+$")
if [ -n "$fps" ] && awk -v f="$fps" 'BEGIN { exit !(f >= 60) }'; then
  verdict PASS "collision 1M barnes-hut 1920x1080 >= 60 fps" "$fps frames/s"
else
  verdict FAIL "collision 1M barnes-hut 1920x1080 >= 60 fps" "${fps:-?} frames/s"
fi
# the whole encounter (first pericentre and tails, the scene's own run length), a PNG every
# 40 frames to look at the bridge and the tails (fewer: the results must come back whole)
dir=$R/render/collision-1M.run
mkdir -p "$dir"
timeout 400 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut --no-energy \
  --width 1920 --height 1080 --png-every 40 --out "$dir" >"$dir/log.txt" 2>&1
rc=$?
grep -E "running|rendered|picture" "$dir/log.txt"
[ $rc -eq 0 ] && verdict PASS "collision 1M run to the tails" "$(grep -oE '[0-9]+ frames \([0-9]+ PNG\)' "$dir/log.txt")" ||
  verdict FAIL "collision 1M run to the tails" "rc $rc"
for p in $(ls "$dir"/frame_*.png 2>/dev/null); do cp "$p" "$R/collision_1M_$(basename "$p")"; done
rm -f "$dir"/frame_*.png
if [ "$gpus" -ge 2 ]; then
  render_check collision-1M.2gpus 10000 0.2 --scene galaxy-collision -n 1048576 \
    --kernel barnes-hut --gpus 2 --frames 200 --no-energy --width 1920 --height 1080
fi

echo "== 5. bench rows"
timeout 300 "$B/nbody" bench --kernels tiled,tiled2d,barnes-hut --n 65536,1048576 --steps 5 \
  --repeats 3 --csv "$R/bench.csv" >"$R/bench.log" 2>&1
rc=$?
grep -E "^(tiled|tiled2d|barnes-hut) " "$R/bench.log" | head -8
[ $rc -eq 0 ] && verdict PASS "bench tiled, tiled2d, barnes-hut" "see bench.csv" ||
  verdict FAIL "bench tiled, tiled2d, barnes-hut" "rc $rc; see bench.log"

# the per-look frames stay in render/*/; the overview PNGs are in $R
find "$R/render" -name "frame_*.png" -delete
rm -f "$R/loaded.csv"
tar -C "$(dirname "$R")" -czf "$OUT/device_check.tgz" device_check
cp "$verdicts" "$OUT/verdicts.txt"
echo
echo "== verdicts ($failed failed); PNGs and logs in $OUT/device_check.tgz"
cat "$verdicts"
rm -rf "$work" "$(dirname "$R")"
[ $failed -eq 0 ]
