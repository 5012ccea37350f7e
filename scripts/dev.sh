#!/usr/bin/env bash
# One entry point for people and CI:
#   bash scripts/dev.sh run  [nbody args]   install what is missing, build, open the window
#   bash scripts/dev.sh test [ctest args]   install what is missing, build, run the whole test
#                                           suite, then again under the sanitizers (what CI runs)
#   bash scripts/dev.sh build               install what is missing and build only
# Works as root or, otherwise, through sudo. Dependencies are Debian packages; the CUDA parts
# build when nvcc is found (PATH or /usr/local/cuda) and are skipped otherwise.
#
# `test` runs three phases, each in its own build folder; NBODY_TEST_PHASES picks some
# (default "main asan tsan"); the ctest args go to each phase's ctest:
#   main  $NBODY_BUILD_DIR (build): the normal build, every test; with CI=true warnings are
#         errors (-DNBODY_WERROR=ON)
#   asan  build-asan: CPU-only, AddressSanitizer + UndefinedBehaviorSanitizer, every test
#   tsan  build-tsan: CPU-only, ThreadSanitizer, the tests labelled "threads" (the window, the
#         simulation thread, background checks) with OMP_NUM_THREADS=1 and LP_NUM_THREADS=0:
#         libgomp's and Mesa llvmpipe's threads synchronise in code TSan does not see, so their
#         regions would be reported as races; the races between our own threads are all seen
# An ASan, LSan or TSan report of any process (a test, or nbody run by a test) is written under
# <build>/sanitizer-logs and fails the phase. A failed phase does not stop the next; the summary
# gives each phase's result and time.
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
  xvfb xauth xdotool libgl1-mesa-dri libegl-mesa0 libglx-mesa0 universal-ctags
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

jobs=$(nproc 2>/dev/null || echo 2)

# the normal build: configure once, then build
build_main() {
  local werror=()
  [ "${CI:-}" = "true" ] && werror=(-DNBODY_WERROR=ON)
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${werror[@]}" \
      ${NBODY_CMAKE_ARGS:-} || return 1
  elif [ ${#werror[@]} -gt 0 ]; then
    cmake "$build_dir" "${werror[@]}" >/dev/null || return 1
  fi
  cmake --build "$build_dir" -j "$jobs"
}

# a sanitizer build: CPU-only, -O2 with line tables only (-g1: file:line in the reports, a third
# less compile time than -g); $1 folder, $2 NBODY_SANITIZE, then the targets (all when none)
build_sanitized() {
  local dir=$1 sanitize=$2
  shift 2
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DNBODY_WITH_CUDA=OFF \
    -DNBODY_SANITIZE="$sanitize" >/dev/null &&
    cmake --build "$dir" -j "$jobs" "${targets[@]}"
}

# runs a command and says how long it took: $1 what, then the command
timed() {
  local what=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  echo "dev.sh: $what took $((SECONDS - start)) s"
  return $rc
}

# prints the sanitizer reports written under $1 and fails when there is one
check_reports() {
  local logs=$1 f found=0
  for f in "$logs"/*; do
    [ -e "$f" ] || continue
    found=1
    echo "dev.sh: sanitizer report $f:"
    cat "$f"
  done
  return $found
}

phase_main() {
  timed "build" build_main &&
    timed "tests" ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
}

phase_asan() {
  local dir=build-asan
  timed "build" build_sanitized "$dir" address,undefined || return 1
  local logs=$PWD/$dir/sanitizer-logs
  rm -rf "$logs" && mkdir -p "$logs"
  local asan="log_path=$logs/asan:detect_stack_use_after_return=1:check_initialization_order=1"
  # UBSan stops the process (-fno-sanitize-recover) and, beside ASan, writes to its stderr
  # whatever log_path says: the tests check the output of every nbody they run
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  local rc=0 start=$SECONDS
  # leaks are checked everywhere but in the GL tests (label gl): Mesa unloads its driver
  # (dlclose) before exit, and the driver's global allocations then look leaked from an
  # "<unknown module>" that no suppression can name (none is reported when dlclose is a no-op)
  ASAN_OPTIONS="$asan:detect_leaks=1" \
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" -LE gl "$@" || rc=1
  ASAN_OPTIONS="$asan:detect_leaks=0" \
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" -L gl "$@" || rc=1
  echo "dev.sh: tests took $((SECONDS - start)) s"
  unset UBSAN_OPTIONS
  check_reports "$logs" || rc=1
  return $rc
}

phase_tsan() {
  local dir=build-tsan
  timed "build" build_sanitized "$dir" thread nbody_threaded_tests || return 1
  local logs=$PWD/$dir/sanitizer-logs
  rm -rf "$logs" && mkdir -p "$logs"
  local rc=0
  # one OpenMP thread: libgomp is not built for TSan and its barriers are invisible to it; no
  # llvmpipe threads (Mesa's software GL): they synchronise in code TSan does not see either
  OMP_NUM_THREADS=1 LP_NUM_THREADS=0 TSAN_OPTIONS="log_path=$logs/tsan:second_deadlock_stack=1" \
    timed "tests" ctest --test-dir "$dir" --output-on-failure -j "$jobs" -L threads "$@" || rc=1
  check_reports "$logs" || rc=1
  return $rc
}

case "$mode" in
  run)
    build_main
    exec "$build_dir/bin/nbody" "$@"
    ;;
  test)
    summary=() status=0
    for phase in ${NBODY_TEST_PHASES:-main asan tsan}; do
      case "$phase" in
        main | asan | tsan) ;;
        *) echo "dev.sh: unknown phase '$phase' (main, asan, tsan)" >&2 && exit 2 ;;
      esac
      echo "dev.sh: phase $phase"
      start=$SECONDS
      if "phase_$phase" "$@"; then result=passed; else result=FAILED status=1; fi
      took=$((SECONDS - start))
      summary+=("$(printf '%-5s %-6s %3dm%02ds' "$phase" "$result" $((took / 60)) $((took % 60)))")
      echo "dev.sh: phase $phase $result after ${took}s"
    done
    echo "dev.sh: summary"
    printf '  %s\n' "${summary[@]}"
    exit $status
    ;;
  build)
    build_main
    ;;
  *)
    echo "usage: bash scripts/dev.sh run|test|build [args]" >&2
    exit 2
    ;;
esac
