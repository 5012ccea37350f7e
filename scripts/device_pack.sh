#!/usr/bin/env bash
# Packs what scripts/device_check.sh needs on the GPU machine into .devpack/ (ignored by git;
# carry it: ["scripts", ".devpack"] are in the work tree anyway, only .devpack must be carried):
#   bin.tar.xz  nbody and every test binary that uses the GPU or GL, stripped
#   lib/      the runtime libraries the device image lacks (Debian packages, extracted there)
#   sky.tgz   the Swiss Ephemeris files and the JPL small-body files of kstars-data
# Build first for the device's architecture, e.g.
#   NBODY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90" bash scripts/dev.sh build
#   bash scripts/device_pack.sh [BUILD_DIR]        (default: build)
# then, with the device tool: carry [".devpack"], command "bash scripts/device_check.sh".
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/bin
[ -x "$bin/nbody" ] || { echo "device_pack: no $bin/nbody (build first)" >&2; exit 1; }
grep -qE "CMAKE_CUDA_ARCHITECTURES:[A-Z]+=.*90" "$build/CMakeCache.txt" ||
  echo "device_pack: warning: $build is not built for sm_90 (the H100/H200)" >&2

out=.devpack
rm -rf "$out"
mkdir -p "$out/lib"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# binaries: the program and the tests that touch the GPU or GL (the rest are CPU-only and run
# in CI)
tests=(test_cuda_kernels test_cuda_variants test_cuda_barnes_hut test_cuda_activity_map
  test_cuda_external_field test_sky_gpu test_multigpu test_kernels test_kernel_compare
  test_cpu_barnes_hut test_sim_runner test_interop test_headless test_cell_boxes
  test_sim_runner_edit test_viewer_edit test_simulation_edit test_galaxy_collision test_cuda_bh_relative
  test_cuda_bh_local test_cuda_bh_refit)
mkdir -p "$tmp/bin"
strip -o "$tmp/bin/nbody" "$bin/nbody"
for t in "${tests[@]}"; do
  if [ -x "$bin/$t" ]; then strip -o "$tmp/bin/$t" "$bin/$t"; else echo "device_pack: no $t" >&2; fi
done
# xz with its 64 MiB window: the binaries share most of their bytes (the same static libraries
# and CUDA code), which gzip's 32 KiB window cannot see (55 MB as .tgz, 8 MB as .tar.xz)
tar -C "$tmp" -cf - bin | xz -9 -T2 >"$out/bin.tar.xz"

# libraries: Debian's packages, extracted (the device image is Ubuntu with the NVIDIA driver
# and CUDA runtime but no GL loader, GLFW, X client libraries, Swiss Ephemeris or stb)
debs=(libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 libglfw3 libx11-6 libxcb1 libxau6
  libxdmcp6 libbsd0 libmd0 libswe2.0 libstb0)
lists=$(mktemp -d)
mkdir -p "$lists/partial"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
apt-get $o update -qq >/dev/null 2>&1 || true
(cd "$tmp" && apt-get $o download -qq "${debs[@]}" >/dev/null 2>&1) ||
  { echo "device_pack: apt-get download failed" >&2; exit 1; }
rm -rf "$lists"
for d in "$tmp"/*.deb; do dpkg -x "$d" "$tmp/root"; done
cp -a "$tmp"/root/usr/lib/x86_64-linux-gnu/*.so* "$out/lib/"
for f in /usr/local/cuda/lib64/libcudart.so.13*; do cp -L "$f" "$out/lib/"; done

# the sky: ephemeris and small-body files
mkdir -p "$tmp/sky"
cp /usr/share/libswe/ephe/*.se1 /usr/share/libswe/ephe/seleapsec.txt "$tmp/sky/" 2>/dev/null || true
cp /usr/share/kstars/asteroids.dat /usr/share/kstars/comets.dat "$tmp/sky/" 2>/dev/null || true
tar -C "$tmp" -czf "$out/sky.tgz" sky

du -sh "$out"
echo "device_pack: carry [\".devpack\"] and run: bash scripts/device_check.sh"
