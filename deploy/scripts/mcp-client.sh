#!/usr/bin/env bash
# Installs the outside MCP client the tests drive — the npm @modelcontextprotocol/sdk, pinned
# — into a cache directory outside the clone, keyed by version. Prints the directory that
# holds its node_modules on its last line. Idempotent: a finished install is reused.
set -euo pipefail

MCP_SDK_VERSION=1.32.2

cache="${REACHY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reachy-broker}"
dir="$cache/mcp-sdk-$MCP_SDK_VERSION"
if [ -f "$dir/.complete" ]; then
  echo "$dir"; exit 0
fi
command -v npm >/dev/null || { echo "mcp-client: npm is missing (run 'make deps')" >&2; exit 1; }
command -v node >/dev/null || { echo "mcp-client: node is missing (run 'make deps')" >&2; exit 1; }

rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
echo '{"name":"reachy-broker-mcp-client","private":true}' >"$dir.tmp/package.json"
echo "mcp-client: installing @modelcontextprotocol/sdk@$MCP_SDK_VERSION" >&2
(cd "$dir.tmp" && npm install --silent --no-audit --no-fund --ignore-scripts \
  "@modelcontextprotocol/sdk@$MCP_SDK_VERSION" >/dev/null)
rm -rf "$dir" && mv "$dir.tmp" "$dir"
touch "$dir/.complete"
echo "$dir"
