#!/usr/bin/env bash
# Downloads a real whisper model (needs internet) and checks its pinned SHA-256.
# Usage: model.sh [tiny.en|base.en] [DIR]
set -euo pipefail
name="${1:-tiny.en}"
dir="${2:-${REACHY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reachy-broker}/models}"
case "$name" in
  tiny.en) sha=921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f; size="75 MB" ;;
  base.en) sha=a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002; size="142 MB" ;;
  *) echo "model: unknown model $name (tiny.en or base.en)" >&2; exit 2 ;;
esac
file="$dir/ggml-$name.bin"
url="https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-$name.bin"
mkdir -p "$dir"
check() { echo "$sha  $1" | sha256sum -c --status; }
if [ -f "$file" ] && check "$file"; then echo "$file"; exit 0; fi
echo "model: downloading ggml-$name.bin ($size) from $url" >&2
if ! curl -fL --retry 2 --connect-timeout 15 -o "$file.part" "$url"; then
  rm -f "$file.part"
  echo "model: could not download $url. This machine seems to be offline: download ggml-$name.bin on a machine with internet, copy it to $file, and run 'make model' again to check it." >&2
  exit 1
fi
if ! check "$file.part"; then
  rm -f "$file.part"
  echo "model: ggml-$name.bin does not match its pinned SHA-256 $sha; not using it." >&2
  exit 1
fi
mv "$file.part" "$file"
echo "$file"
