#!/usr/bin/env bash
# Installs the system packages reachy-broker needs, only when missing. Debian/Ubuntu through
# apt-get (as root, or with sudo), macOS through Homebrew. Safe to run again; never prompts.
set -euo pipefail

if [ "$(uname -s)" = "Darwin" ]; then
  command -v brew >/dev/null || { echo "deps: install Homebrew first (https://brew.sh)" >&2; exit 1; }
  for f in cmake espeak-ng flite portaudio mosquitto node; do
    brew list --formula "$f" >/dev/null 2>&1 || brew install "$f"
  done
  command -v radicale >/dev/null || echo "deps: radicale is optional on macOS (pipx install radicale) for the CalDAV tests" >&2
  exit 0
fi

# Debian package -> a file it installs, so a check costs no apt call. Packages are installed
# with --no-install-recommends, so what a real component needs at run time through a
# *Recommends* of one of its dependencies is listed here by name: radicale's vobject parses
# time zones with pytz (python3-vobject only recommends python3-tz; without it every CalDAV
# PUT answers 400 "No module named 'pytz'"). The console's browser test drives Debian's
# chromium headless; its page text needs a font, which chromium only recommends.
declare -A want=(
  [python3-tz]=/usr/lib/python3/dist-packages/pytz/__init__.py
  [cmake]=/usr/bin/cmake
  [g++]=/usr/bin/g++
  [espeak-ng]=/usr/bin/espeak-ng
  [portaudio19-dev]=/usr/include/portaudio.h
  [pkg-config]=/usr/bin/pkg-config
  [mosquitto]=/usr/sbin/mosquitto
  # mosquitto_sub: docs/home.md checks an MQTT intent's message with it.
  [mosquitto-clients]=/usr/bin/mosquitto_sub
  [radicale]=/usr/bin/radicale
  [npm]=/usr/bin/npm
  [openssl]=/usr/bin/openssl
  [curl]=/usr/bin/curl
  [chromium]=/usr/bin/chromium
  # The live call's browser tests: Firefox ESR driven over WebDriver BiDi, and `ip` to make
  # the tailnet-like network namespace they call the robot across.
  [firefox-esr]=/usr/bin/firefox-esr
  [iproute2]=/usr/sbin/ip
  [fonts-dejavu-core]=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  [libpocketsphinx-dev]=/usr/include/pocketsphinx/pocketsphinx.h
  [pocketsphinx-en-us]=/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict
  [sox]=/usr/bin/sox
  [flite]=/usr/bin/flite
  # The wake engines' training and evaluation sets: a third synthesizer and its English voices.
  [festival]=/usr/bin/text2wave
  [festvox-kallpc16k]=/usr/share/festival/voices/english/kal_diphone/festvox/kal_diphone.scm
  [festvox-kdlpc16k]=/usr/share/festival/voices/english/ked_diphone/festvox/ked_diphone.scm
  [festvox-us-slt-hts]=/usr/share/festival/voices/us/cmu_us_slt_arctic_hts/festvox/cmu_us_slt_arctic_hts.scm
  [qemu-user-static]=/usr/bin/qemu-aarch64-static
  # The live call's media (reachy-call, robot/call/media): gst-launch-1.0 runs the pipelines; -base has
  # audiotestsrc/opus/audiomixer, -good the RTP payloaders and rtpstreampay, -ugly x264enc
  # (the simulator's encoder), -bad webrtcdsp/webrtcechoprobe (it Depends on
  # libwebrtc-audio-processing1, so --no-install-recommends still gets it).
  [gstreamer1.0-tools]=/usr/bin/gst-launch-1.0
  [gstreamer1.0-plugins-base]=/usr/lib/$(uname -m)-linux-gnu/gstreamer-1.0/libgstopus.so
  [gstreamer1.0-plugins-good]=/usr/lib/$(uname -m)-linux-gnu/gstreamer-1.0/libgstrtp.so
  [gstreamer1.0-plugins-ugly]=/usr/lib/$(uname -m)-linux-gnu/gstreamer-1.0/libgstx264.so
  [gstreamer1.0-plugins-bad]=/usr/lib/$(uname -m)-linux-gnu/gstreamer-1.0/libgstwebrtcdsp.so
  # The state tests: an operator's sqlite3 against a running broker, and a loop-mounted ext4
  # image frozen with fsfreeze (root only; skipped otherwise).
  [sqlite3]=/usr/bin/sqlite3
  [e2fsprogs]=/sbin/mkfs.ext4
  [util-linux]=/usr/sbin/fsfreeze
)
missing=()
for pkg in "${!want[@]}"; do
  [ -e "${want[$pkg]}" ] || missing+=("$pkg")
done
# The machine may already have node/npm from elsewhere.
if command -v npm >/dev/null; then
  missing=("${missing[@]/npm}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo -n"
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq </dev/null >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
