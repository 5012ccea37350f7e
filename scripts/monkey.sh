#!/usr/bin/env bash
# The monkey for minutes under AddressSanitizer + UndefinedBehaviorSanitizer (issue 20):
#   bash scripts/monkey.sh [SECONDS] [SEED...]
# builds build-asan as scripts/dev.sh's asan phase does (CPU-only, RelWithDebInfo -O2 -g1), then
# runs tests/app/test_gui_monkey.cpp once per seed, SECONDS in all (default 300) shared among the
# seeds (default: four seeds from the time of day, printed). Each failure prints its seed and last
# actions: NBODY_MONKEY_SEED=<seed> NBODY_MONKEY_SECONDS=<s> build-asan/bin/test_gui_monkey
# replays it. Sanitizer reports are written under build-asan/sanitizer-logs/monkey. Exits non-zero
# when any seed ended abnormally.
set -uo pipefail
cd "$(dirname "$0")/.."

total=${1:-300}
[ $# -gt 0 ] && shift
seeds=("$@")
if [ ${#seeds[@]} -eq 0 ]; then
  base=$(date +%s)
  seeds=($((base % 100000)) $((base % 100000 + 1)) $((base % 100000 + 2)) $((base % 100000 + 3)))
fi
per_seed=$((total / ${#seeds[@]}))
[ "$per_seed" -lt 20 ] && per_seed=20

dir=build-asan
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DNBODY_WITH_CUDA=OFF \
  -DNBODY_SANITIZE=address,undefined >/dev/null &&
  cmake --build "$dir" -j "$jobs" --target nbody test_gui_monkey || exit 1

logs=$PWD/$dir/sanitizer-logs/monkey
rm -rf "$logs" && mkdir -p "$logs"
# as dev.sh's asan phase runs the GL tests: no leak check (Mesa's driver is unloaded before exit)
export ASAN_OPTIONS="log_path=$logs/asan:detect_stack_use_after_return=1:detect_leaks=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
for seed in "${seeds[@]}"; do
  echo "monkey.sh: seed $seed, $per_seed s"
  if ! NBODY_MONKEY_SEED=$seed NBODY_MONKEY_SECONDS=$per_seed "$dir/bin/test_gui_monkey"; then
    failed+=("$seed")
  fi
done
for f in "$logs"/*; do
  [ -e "$f" ] || continue
  echo "monkey.sh: sanitizer report $f:"
  cat "$f"
  failed+=("report:$(basename "$f")")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "monkey.sh: ABORTS: ${failed[*]} (of seeds ${seeds[*]})"
  exit 1
fi
echo "monkey.sh: 0 aborts in ${#seeds[@]} seeds x $per_seed s (seeds ${seeds[*]})"
