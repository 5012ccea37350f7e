#!/usr/bin/env bash
# The size rules of the code (issue 18): no source file over 800 lines, no function over 150.
# Functions are found by Universal Ctags (package universal-ctags), .cu/.cuh read as C++.
# Usage: scripts/check_sizes.sh [ROOT]   (default: the repository). Exit 1 and a list when a
# rule is broken; 2 when ctags is missing or is not Universal Ctags.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
max_file=800
max_function=150
cd "$root"
# Debian's universal-ctags installs ctags-universal (and `ctags` as an alternative)
ctags=ctags
command -v ctags-universal >/dev/null 2>&1 && ctags=ctags-universal
if ! $ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "check_sizes: Universal Ctags is needed (apt-get install universal-ctags)" >&2
  exit 2
fi
dirs=(sim app render)
status=0
# files
while IFS= read -r f; do
  n=$(wc -l <"$f")
  if [ "$n" -gt "$max_file" ]; then
    echo "check_sizes: $f has $n lines (at most $max_file)"
    status=1
  fi
done < <(find "${dirs[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \
  -o -name '*.h' \) | sort)
# functions: a tag's line and end fields give its extent
long=$($ctags --languages=C++ --langmap=C++:+.cu.cuh --kinds-C++=f --fields=+ne -o - -R "${dirs[@]}" |
  awk -F'\t' -v max="$max_function" '{
    s = 0; e = 0
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) s = substr($i, 6)
      if ($i ~ /^end:/) e = substr($i, 5)
    }
    if (e > 0 && e - s + 1 > max) printf "check_sizes: %s:%d %s has %d lines (at most %d)\n", $2, s, $1, e - s + 1, max
  }' | sort)
if [ -n "$long" ]; then
  echo "$long"
  status=1
fi
[ "$status" -eq 0 ] && echo "check_sizes: every file <= $max_file lines, every function <= $max_function lines"
exit $status
