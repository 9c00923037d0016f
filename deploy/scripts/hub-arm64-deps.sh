#!/usr/bin/env bash
# Installs what cross-compiling reachy-hub for the robot (linux/arm64, cgo for PortAudio)
# needs on Debian/Ubuntu: the aarch64 C compiler, PortAudio's and PocketSphinx's arm64 headers
# and libraries (multiarch). The robot itself needs libpocketsphinx3 and pocketsphinx-en-us.
# Safe to run again; never prompts.
set -euo pipefail
[ "$(uname -s)" = "Linux" ] || { echo "hub-arm64: cross-building needs Debian/Ubuntu; on a Mac build on the robot or in a Linux VM" >&2; exit 1; }
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo -n"
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq </dev/null >/dev/null
fi
missing=()
have gcc-aarch64-linux-gnu || missing+=(gcc-aarch64-linux-gnu)
have portaudio19-dev:arm64 || missing+=(portaudio19-dev:arm64)
have libc6-dev:arm64 || missing+=(libc6-dev:arm64)   # multiarch headers: pkg-config adds -I/usr/include
have pkg-config || missing+=(pkg-config)
# The wake-phrase spotter (robot/wake): PocketSphinx and sphinxbase, linked through cgo.
have libpocketsphinx-dev:arm64 || missing+=(libpocketsphinx-dev:arm64)
have libsphinxbase-dev:arm64 || missing+=(libsphinxbase-dev:arm64)
# The neural engine's arm64 ONNX Runtime (wake-neural.sh arm64) links libstdc++: make
# wake-bench-arm64 runs it under qemu-aarch64-static -L /, which loads it from multiarch.
have libstdc++6:arm64 || missing+=(libstdc++6:arm64)
have qemu-user-static || missing+=(qemu-user-static)
if [ ${#missing[@]} -gt 0 ]; then
  echo "hub-arm64: installing ${missing[*]}" >&2
  $sudo apt-get update -qq </dev/null >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi
