#!/usr/bin/env bash
# Unpacks a .tar.xz into a folder on a machine that may lack xz (the GPU machine's image):
# xz when present, else Python's lzma module.  Usage: unpack_xz.sh FILE.tar.xz DIR
set -euo pipefail
mkdir -p "$2"
if command -v xz >/dev/null 2>&1; then
  xz -dc "$1" | tar -C "$2" -xf -
else
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1" |
    tar -C "$2" -xf -
fi
