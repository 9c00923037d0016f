#!/usr/bin/env bash
# Checks deps.sh against a machine that has nothing: a minimal Debian bookworm made with
# debootstrap (as root, needs the Debian mirror), where deps.sh installs the project's
# packages and the tests that drive real components (radicale, mosquitto, espeak-ng) run.
# A green `make test` on a machine where something else installed a package proves nothing
# about deps.sh; this does. Usage: deploy/scripts/fresh-check.sh [ROOT] (default /tmp/reachy-fresh).
# Not part of `make test` (it takes minutes and a mirror); run it when deps.sh changes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="${1:-/tmp/reachy-fresh}"
[ "$(id -u)" = 0 ] || { echo "fresh-check: run as root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
if [ ! -x "$root/bin/bash" ]; then
  echo "fresh-check: debootstrap minbase bookworm into $root (a few minutes)" >&2
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
mkdir -p "$root/root/proj/deploy/scripts" "$root/root/tests"
cp deploy/scripts/deps.sh "$root/root/proj/deploy/scripts/"
# The real-component tests as static binaries (no cgo): the chroot has no Go toolchain.
for pkg in intents/calendar intents/home speech; do
  CGO_ENABLED=0 go test -c -o "$root/root/tests/$(echo "$pkg" | tr / -).test" "./$pkg"
done
mount --bind /proc "$root/proc"; mount --bind /dev "$root/dev"
trap 'umount "$root/proc" "$root/dev"' EXIT
chroot "$root" /bin/bash -c 'cd /root/proj && bash deploy/scripts/deps.sh'
fail=0
for t in "$root"/root/tests/*.test; do
  name=$(basename "$t")
  if chroot "$root" /bin/bash -c "cd /root && HOME=/root ./tests/$name -test.count=1" >"$root/root/tests/$name.log" 2>&1; then
    echo "fresh-check: $name ok"
  else
    echo "fresh-check: $name FAILED (log: $root/root/tests/$name.log)"; fail=1
  fi
done
exit $fail
