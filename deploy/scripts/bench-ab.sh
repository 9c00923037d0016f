#!/usr/bin/env bash
# bench-ab.sh REV [RUNS]: the broker's cost benchmarks of REV ("before") and of the working
# tree ("after"), test binaries alternating in one run so both see the same machine. Prints
# one line per benchmark run, prefixed before/after. Needs the whisper.cpp build (make whisper).
set -euo pipefail
rev=${1:?usage: bench-ab.sh REV [RUNS]}
runs=${2:-3}
root=$(git rev-parse --show-toplevel)
cache=${REACHY_CACHE_DIR:-$HOME/.cache/reachy-broker}
whisper=$(ls -d "$cache"/whisper.cpp-*-"$(uname -s)"-"$(uname -m)" | head -1)
export CGO_ENABLED=1 CGO_CFLAGS="-I$whisper/include" CGO_LDFLAGS="-L$whisper/lib"
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/before-src" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$root" worktree add --detach "$tmp/before-src" "$rev" >/dev/null 2>&1
for v in before after; do
	src=$root
	[ "$v" = before ] && src=$tmp/before-src
	(cd "$src" && go test -c -o "$tmp/$v-broker.test" ./broker && go test -c -o "$tmp/$v-ctl.test" ./cmd/reachyctl &&
		go test -c -o "$tmp/$v-redact.test" ./redact)
done
bench() { # version, package dir, benchmark, benchtime
	(cd "$root/$2" && "$tmp/$1-$3" -test.run '^$' -test.bench "$4" -test.benchtime "$5" 2>&1 | grep '^Benchmark' | sed "s/^/$1 /")
}
for _ in $(seq "$runs"); do
	for v in before after; do
		bench "$v" broker broker.test 'BenchmarkTextTurn$' 3000x
		bench "$v" cmd/reachyctl ctl.test BenchmarkCtlBench 20x
		bench "$v" broker broker.test BenchmarkTurnDeterministic 250x
		bench "$v" broker broker.test BenchmarkKeyedActuation 300x
		bench "$v" redact redact.test BenchmarkRedact 1s
	done
done
uptime
