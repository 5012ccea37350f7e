#!/usr/bin/env bash
# One run on the GPU machine (two H200s): every GPU test, then the Barnes-Hut benchmarks of
# docs/PERFORMANCE.md (crossover against tiled2d, 1M and 8M, theta sweep), the headless render
# of a 1M-body galaxy collision, and seed 003's solar year. Binaries come prebuilt in
# build-dev/bin (carried), the ephemeris and SBDB files in build-dev/sky. Results under $OUT.
#   carry: [".gl", "build-dev"]; bash scripts/device_bh.sh
set -u
cd "$(dirname "$0")/.."
for f in .gl/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
ldconfig
export NCCL_NVLS_ENABLE=0
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
mkdir -p /usr/share/libswe/ephe /usr/share/kstars
cp build-dev/sky/*.se1 build-dev/sky/seleapsec.txt /usr/share/libswe/ephe/ 2>/dev/null
cp build-dev/sky/*.dat /usr/share/kstars/
B=build-dev/bin
OUT=${OUT:-out}
mkdir -p "$OUT"
nvidia-smi -L
echo "== tests"
for t in test_cuda_kernels test_cuda_barnes_hut test_multigpu test_cuda_activity_map test_sky_gpu \
  test_interop test_headless; do
  timeout 300 "$B/$t" --gtest_brief=1 > "$OUT/$t.log" 2>&1
  echo "$t: rc $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" "$OUT/$t.log" | head -5
done
echo "== crossover: barnes-hut vs tiled2d, float, galaxy collision"
timeout 300 "$B/nbody" bench --kernels barnes-hut,tiled2d --n 4096,16384,32768,65536,131072,262144 \
  --distribution galaxy-collision --steps 10 --repeats 5 --json "$OUT/crossover.json" \
  --csv "$OUT/crossover.csv" 2>&1 | sed -n '/fastest per N/,$p'
echo "== barnes-hut at 1M and 8M (defaults), float"
for d in cube plummer galaxy-collision; do
  timeout 300 "$B/nbody" bench --kernels barnes-hut --n 1048576,8388608 --distribution $d \
    --steps 10 --repeats 5 --json "$OUT/bh_$d.json" --csv "$OUT/bh_$d.csv" 2>&1 |
    grep -E "^barnes-hut|phases" | tail -4
done
echo "== theta sweep, 1M galaxy collision, float"
timeout 300 "$B/nbody" bench --kernels barnes-hut --n 1048576 --distribution galaxy-collision \
  --theta 0.3,0.4,0.5,0.55,0.6,0.7,0.8,1.0 --steps 5 --repeats 3 --csv "$OUT/theta.csv" 2>&1 |
  grep -E "^barnes-hut" | tail -8
echo "== render: 1M galaxy collision, barnes-hut, 600 frames"
timeout 300 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut \
  --frames 600 --png-every 0 --no-energy --out "$OUT/render_bh" 2>&1 | tail -3
timeout 120 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut --tree-cells 3 \
  --frames 30 --png-every 0 --no-energy --out "$OUT/render_tree" 2>&1 | tail -1
echo "== two GPUs: render 1M barnes-hut"
timeout 120 "$B/nbody" render --scene galaxy-collision -n 1048576 --kernel barnes-hut --gpus 2 \
  --frames 120 --png-every 0 --no-energy --out "$OUT/render_bh2" 2>&1 | tail -1
echo "== seed 003: one year, dt = 1 h, solar system + 10,866 SBDB bodies, double"
NBODY=$B/nbody OUT=$OUT/seed003 timeout 400 bash scripts/seed003_solar_year.sh tiled2d barnes-hut \
  2>&1 | grep -vE "^\s*$" | tail -12
