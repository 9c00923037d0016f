#!/usr/bin/env bash
# Installs reachy-hub (and beside it reachy-call, the live call's media process it starts for
# each call, and reachy-wake, the process it runs a neural wake engine in) on a Reachy Mini over
# SSH on the tailnet. A neural engine (wake_spotter: neural|fused|either|both) also needs the
# arm64 runtime directory: deploy/scripts/wake-neural.sh arm64, copied to /usr/local/lib/reachy-wake.
# Usage: deploy/robot/install.sh ROBOT_TAILNET_NAME TOKEN_FILE [CONFIG]
#   ROBOT_TAILNET_NAME  e.g. reachy-living-room (user pollen, reachable over Tailscale SSH or sshd)
#   TOKEN_FILE          a file holding the robot's broker token (reachyctl token create --node ...)
#   CONFIG              hub config (default deploy/robot/config.example.yaml)
set -euo pipefail
robot="${1:?robot tailnet name}"
token="${2:?token file}"
config="${3:-deploy/robot/config.example.yaml}"
bin=bin/reachy-hub-linux-arm64
callbin=bin/reachy-call-linux-arm64
wakebin=bin/reachy-wake-linux-arm64
[ -f "$bin" ] && [ -f "$callbin" ] && [ -f "$wakebin" ] || make hub-arm64
[ -s "$token" ] || { echo "install: $token is empty" >&2; exit 1; }
target="pollen@$robot"
echo "install: copying to $target"
scp -q "$bin" "$target:/tmp/reachy-hub"
scp -q "$callbin" "$target:/tmp/reachy-call"
scp -q "$wakebin" "$target:/tmp/reachy-wake"
scp -q deploy/robot/reachy-hub.service "$target:/tmp/reachy-hub.service"
scp -q "$config" "$target:/tmp/reachy-hub.yaml"
# The token travels over SSH on the tailnet and lands 0600, never in a world-readable place.
ssh "$target" 'umask 077; cat > /tmp/reachy-hub.token' < "$token"
ssh "$target" 'set -e
  # The live call runs its media (reachy-call) through GStreamer (robot/call/media): capture, the hardware H.264
  # encoder, ALSA, the echo canceller (webrtcdsp in -plugins-bad). Installed only when missing.
  pkgs="gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-alsa gstreamer1.0-libcamera"
  missing=$(for p in $pkgs; do dpkg-query -W -f="\${Status}" $p 2>/dev/null | grep -q "install ok installed" || echo $p; done)
  if [ -n "$missing" ]; then sudo apt-get install -y -qq --no-install-recommends $missing </dev/null >/dev/null; fi
  sudo install -m 0755 /tmp/reachy-hub /usr/local/bin/reachy-hub
  sudo install -m 0755 /tmp/reachy-call /usr/local/bin/reachy-call
  sudo install -m 0755 /tmp/reachy-wake /usr/local/bin/reachy-wake
  sudo install -d -m 0750 -o pollen -g pollen /etc/reachy-hub
  sudo install -m 0644 /tmp/reachy-hub.yaml /etc/reachy-hub/config.yaml
  sudo install -m 0600 -o pollen -g pollen /tmp/reachy-hub.token /etc/reachy-hub/token
  sudo install -m 0644 /tmp/reachy-hub.service /etc/systemd/system/reachy-hub.service
  rm -f /tmp/reachy-hub /tmp/reachy-call /tmp/reachy-wake /tmp/reachy-hub.yaml /tmp/reachy-hub.token /tmp/reachy-hub.service
  sudo systemctl daemon-reload
  sudo systemctl enable --now reachy-hub
  systemctl --no-pager status reachy-hub | head -5'
echo "install: done. Logs: ssh $target journalctl -u reachy-hub -f"
