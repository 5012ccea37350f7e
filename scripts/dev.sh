#!/usr/bin/env bash
# One entry point for people and CI:
#   bash scripts/dev.sh run  [nbody args]   install what is missing, build, open the window
#   bash scripts/dev.sh test [ctest args]   install what is missing, build, run the whole test suite
#   bash scripts/dev.sh build               install what is missing and build only
# Works as root or, otherwise, through sudo. Dependencies are Debian packages; the CUDA parts
# build when nvcc is found (PATH or /usr/local/cuda) and are skipped otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
[ $# -gt 0 ] && shift

build_dir=${NBODY_BUILD_DIR:-build}
packages=(
  cmake ninja-build g++ pkg-config git
  libglfw3-dev libglm-dev libimgui-dev python3-glad libegl-dev libgl-dev libopengl-dev
  libcli11-dev libstb-dev nlohmann-json3-dev libgtest-dev libgmock-dev
  libswe-dev swe-basic-data kstars-data
  xvfb xauth libgl1-mesa-dri libegl-mesa0 libglx-mesa0
)

# install the packages that are missing
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "dev.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# configure once, then build
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release ${NBODY_CMAKE_ARGS:-}
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake --build "$build_dir" -j "$jobs"

case "$mode" in
  run)
    exec "$build_dir/bin/nbody" "$@"
    ;;
  test)
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
    ;;
  build)
    ;;
  *)
    echo "usage: bash scripts/dev.sh run|test|build [args]" >&2
    exit 2
    ;;
esac
