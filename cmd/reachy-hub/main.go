// Command reachy-hub runs on the Reachy Mini: it listens (PortAudio, VAD), sends each
// utterance to the broker with the robot's one token, speaks the reply through the robot's
// daemon and moves with it. --sim runs the same loop with WAV files as the microphone and an
// in-process fake daemon, so it can be tried without a robot.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/robot"
	"github.com/reachy-broker/reachy-broker/robot/ambient"
	"github.com/reachy-broker/reachy-broker/robot/call"
	"github.com/reachy-broker/reachy-broker/robot/wake"
	"github.com/reachy-broker/reachy-broker/speech"
)

const usageText = `usage: reachy-hub [--config FILE] [--broker URL] [--token-file FILE] [--daemon URL] [-v]
       reachy-hub --sim [--link] [--broker URL] [--token-file FILE] [--daemon URL] [--out DIR] WAV|DIR...
       reachy-hub --list-devices | --version

On the robot it listens with PortAudio and drives the daemon (daemon_url, default
http://127.0.0.1:8000). --sim reads WAV files as the microphone and, unless --daemon names
one, drives an in-process fake daemon whose calls it writes to --out, with every sound the
robot plays (numbered WAVs and sounds.json). With --link it may start with no WAV input: it
waits for the robot link, then hears the files and every new .wav in the folders as they
appear, until SIGTERM. Flags may come before or after the WAV files and folders.

`

func main() {
	limitGoMemory()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// goMemoryLimit is the soft limit the hub gives Go's collector, unless GOMEMLIMIT names
// another. The hub keeps about 9 MB of Go memory live at its most, measured on long talk in
// steady noise (the utterance, and the spotter's scratch for a 14 s stretch heard twice:
// wake/denoise.go). Left to itself, the collector let the heap grow to twice that between
// collections and kept the freed pages: on two tellings of 22 s of talk in steady noise the
// hub peaked at 42-46 MB RSS (GOMEMLIMIT=off), against the 40 MB target; with this limit, 37 MB
// (TestHubPeakRSSInLongNoisySpeech). It is soft: should more ever be live, the collector runs
// more often (never more than half the CPU) and the hub goes on.
const goMemoryLimit = 18 << 20

// limitGoMemory sets goMemoryLimit; main calls it, before anything else runs.
func limitGoMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(goMemoryLimit)
	}
}

// multi collects repeated or space-separated --input values.
type multi []string

func (m *multi) String() string     { return fmt.Sprint(*m) }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// run is main without the process: tests call it with their own HTTP client for the broker.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, brokerHTTP *http.Client) int {
	fs := flag.NewFlagSet("reachy-hub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	configPath := fs.String("config", "", "hub config file (/etc/reachy-hub/config.yaml on the robot)")
	sim := fs.Bool("sim", false, "simulator: WAV files as the microphone, an in-process fake daemon")
	var inputs multi
	fs.Var(&inputs, "input", "sim: a WAV file or a directory of them (repeatable; more may follow the flags)")
	out := fs.String("out", "", "sim: write turns, motions, daemon calls and every sound the robot plays (numbered WAVs, sounds.json) here")
	brokerURL := fs.String("broker", "", "broker URL (overrides the config)")
	tokenFile := fs.String("token-file", "", "token file, mode 0600 (overrides the config)")
	linkFlag := fs.Bool("link", false, "sim: open the robot link and keep it (and the hub) up until SIGTERM; the microphone waits for the link, then hears the WAV files and every new .wav in the folders as it appears; --out is kept up to date as calls happen")
	daemonURL := fs.String("daemon", "", "the robot daemon's URL (overrides daemon_url; with --sim: drive this daemon, e.g. 'reachyctl fake-daemon' or a real robot, instead of the built-in fake)")
	callIfaces := fs.String("call-interface", "", "the live call's network interfaces, comma-separated (overrides call.interfaces; default tailscale0, with --sim lo)")
	listDevices := fs.Bool("list-devices", false, "list audio devices and exit")
	showVersion := fs.Bool("version", false, "print the version and exit")
	verbose := fs.Bool("v", false, "debug logging")
	// Flags may follow the WAV files and folders: "--sim /tmp/mic --daemon URL" works.
	positional, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "%s\nwhisper.cpp: not linked (speech-to-text runs on the broker)\n", buildinfo.String("reachy-hub"))
		return 0
	}
	inputs = append(inputs, positional...)
	if len(inputs) > 0 && !*sim {
		fmt.Fprintf(stderr, "reachy-hub: %q: WAV files and folders are the microphone of --sim only; on the robot it listens with PortAudio\n", inputs[0])
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	if *listDevices {
		done, err := robot.OpenAudio()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer done()
		devs, err := robot.ListDevices()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		for _, d := range devs {
			fmt.Fprintf(stdout, "%-40s %-8s in=%d out=%d %.0f Hz\n", d.Name, d.HostAPI, d.MaxInputs, d.MaxOutputs, d.DefaultRateHz)
		}
		return 0
	}

	cfg := &robot.Config{}
	if *configPath != "" {
		var err error
		if cfg, err = robot.LoadConfig(*configPath); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if *brokerURL != "" {
		cfg.BrokerURL = *brokerURL
	}
	if *tokenFile != "" {
		cfg.TokenFile = *tokenFile
	}
	if *daemonURL != "" {
		cfg.DaemonURL = *daemonURL
	}
	cfg.Defaults()
	if *callIfaces != "" {
		cfg.Call.Interfaces = strings.Split(*callIfaces, ",")
	}
	if *sim {
		cfg.Call.DefaultsFrom(call.Sim())
	} else {
		cfg.Call.Defaults()
	}
	if err := cfg.Call.Validate("reachy-hub"); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if cfg.BrokerURL == "" {
		fmt.Fprintln(stderr, "reachy-hub: which broker? Pass --broker URL (e.g. http://reachy-broker:8092), or broker_url in the --config file")
		return 2
	}
	if cfg.TokenFile == "" {
		fmt.Fprintln(stderr, "reachy-hub: no token: pass --token-file FILE (mode 0600; reachyctl token create makes one), or token_file in the --config file")
		return 2
	}
	if !strings.Contains(cfg.BrokerURL, "://") {
		cfg.BrokerURL = "http://" + cfg.BrokerURL // --broker reachy-broker:8092 works too
	}
	if err := cfg.Validate("reachy-hub"); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	token, err := robot.ReadToken(cfg.TokenFile)
	if err != nil {
		fmt.Fprintln(stderr, "reachy-hub:", err)
		return 1
	}
	client := &robot.BrokerClient{URL: cfg.BrokerURL, Token: token, HTTP: brokerHTTP, Deadline: cfg.Deadline}
	// Nothing leaves the robot until it is addressed: a hub that cannot spot its phrase
	// refuses to start rather than uploading everything it hears.
	spotter, err := newWakeGuard(cfg, log)
	if err != nil {
		fmt.Fprintln(stderr, "reachy-hub: refusing to start:", err)
		return 1
	}
	if spotter != nil {
		defer spotter.Spotter.Close()
	}

	if *sim {
		external := ""
		if *daemonURL != "" {
			external = cfg.DaemonURL
		}
		var l *robot.Link
		if *linkFlag {
			l = &robot.Link{URL: cfg.BrokerURL, Token: token, HTTP: brokerHTTP, Version: "reachy-hub-sim", Log: log}
		}
		if err := runSim(ctx, cfg, client, l, spotter, inputs, *out, external, stdout, log); err != nil {
			fmt.Fprintln(stderr, "reachy-hub:", err)
			return 1
		}
		return 0
	}
	var l *robot.Link
	if cfg.LinkOn() {
		l = &robot.Link{URL: cfg.BrokerURL, Token: token, HTTP: brokerHTTP, Version: "reachy-hub", Log: log}
	}
	if err := runRobot(ctx, cfg, client, l, spotter, log); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "reachy-hub:", err)
		return 1
	}
	return 0
}

func runRobot(ctx context.Context, cfg *robot.Config, client *robot.BrokerClient, l *robot.Link, spotter *wake.Guard, log *slog.Logger) error {
	done, err := robot.OpenAudio()
	if err != nil {
		return err
	}
	defer done()
	mic, err := robot.OpenCapture(cfg.InputDevice, 2)
	if err != nil {
		return err
	}
	defer mic.Close()
	d := robot.NewDaemon(cfg.DaemonURL, 3*time.Second)
	var speaker robot.Speaker = robot.DaemonSpeaker{D: d}
	if cfg.Speak == "portaudio" {
		pa := &robot.PortAudioSpeaker{Device: cfg.OutputDev}
		if sdk, err := d.OpenSDK(ctx); err == nil {
			defer sdk.Close()
			pa.SDK = sdk // speech sway over /ws/sdk set_speech_offsets
		} else {
			log.Warn("no /ws/sdk channel: speaking without head sway", "err", err)
		}
		speaker = pa
	}
	h := &robot.Hub{Source: mic, Broker: client, Daemon: d, Speaker: speaker, Motion: robot.NewMotion(d, cfg.Expressions, log),
		Fallback: robot.FallbackSpeech(ctx, cfg.FallbackWAV), MaxUtter: cfg.MaxUtter, Log: log,
		Wake: spotter, FollowUpWindow: cfg.FollowUpWindow}
	if l != nil {
		// The room's pending timers ring here too when the broker does not ring them.
		mem := cfg.TimerMemory
		if mem == "" {
			mem = robot.DefaultTimerMemory()
		}
		h.Timers = &robot.LocalTimers{Speaker: speaker, After: cfg.TimerLocalAfter, Say: speech.Espeak{}.Synthesize, Log: log, Memory: mem}
		go h.Timers.Run(ctx)
		h.Call = newCall(cfg.Call, "", log)
		defer h.Call.End("", api.CallEndRobotOffline) // the hub stops: so do the call's pipelines
		h.AttachLink(l)
		go l.Run(ctx)
	}
	if !cfg.Ambient.Off {
		// Small motions now and then when nobody is talking; on the robot, so they go on
		// with the broker away.
		amb, err := ambient.New(cfg.Ambient, h.AmbientBody(), ambient.RealClock{}, uint64(time.Now().UnixNano()), log.Info)
		if err != nil {
			return err
		}
		h.Ambient = amb
		amb.Start()
		defer amb.Stop()
	}
	log.Info("reachy-hub listening", "broker", cfg.BrokerURL, "mic", cfg.InputDevice, "link", l != nil,
		"wake_spotter", cfg.WakeSpotter, "wake_phrases", cfg.WakePhrases)
	return h.Run(ctx)
}

// newCall is the hub's live-call manager. Each call's media runs in reachy-call, started
// for the length of the call; a hub that cannot find it says so now (calls are then refused
// no_media) and goes on.
func newCall(cfg call.Config, out string, log *slog.Logger) *call.Manager {
	m := &call.Manager{Config: cfg, OutDir: out, Log: log}
	if err := m.Check(); err != nil {
		log.Error("live calls will be refused (no_media)", "err", err)
	}
	return m
}

// newWakeGuard builds the configured spotter. The neural engine runs in the wake process,
// reachy-wake, beside the hub's executable or on PATH, so the hub itself stays within its 40 MB;
// fused, either and both run PocketSphinx in the hub, as the default engine does, and the
// neural engine in reachy-wake. A missing runtime is said before the process is
// looked for, a missing reachy-wake before anything starts; either way the hub refuses to start.
func newWakeGuard(cfg *robot.Config, log *slog.Logger) (*wake.Guard, error) {
	if cfg.WakeSpotter == "off" {
		return nil, nil
	}
	o, err := cfg.WakeOptions()
	if err != nil {
		return nil, err
	}
	if !wake.NeedsProcess(o.Engine) {
		return robot.NewWakeGuard(cfg, log)
	}
	if err := wake.CheckRuntime(o.RuntimeDir); err != nil {
		return nil, err
	}
	path, err := wake.FindProgram()
	if err != nil {
		return nil, err
	}
	if o.Engine == wake.EngineFused {
		// PocketSphinx in the hub, the neural engine in the wake process, the fusion here.
		f, err := wake.StartFused(path, o, log)
		if err != nil {
			return nil, err
		}
		return wake.NewGuard(f, log), nil
	}
	if o.Engine == wake.EngineEither || o.Engine == wake.EngineBoth {
		c, err := wake.StartCombined(path, o, log)
		if err != nil {
			return nil, err
		}
		return wake.NewGuard(c, log), nil
	}
	p, err := wake.StartProcess(path, o, log)
	if err != nil {
		return nil, err
	}
	return wake.NewGuard(p, log), nil
}
