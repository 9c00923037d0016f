// Command reachy-hub runs on the Reachy Mini: it listens (PortAudio, VAD), sends each
// utterance to the broker with the robot's one token, speaks the reply through the robot's
// daemon and moves with it. --sim runs the same loop with WAV files as the microphone and an
// in-process fake daemon, so it can be tried without a robot.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/robot"
)

const usageText = `usage: reachy-hub [--config FILE] [--broker URL] [--token-file FILE] [--daemon URL] [-v]
       reachy-hub --sim [--broker URL] [--token-file FILE] [--daemon URL] [--out DIR] WAV|DIR...
       reachy-hub --list-devices | --version

On the robot it listens with PortAudio and drives the daemon (daemon_url, default
http://127.0.0.1:8000). --sim reads WAV files as the microphone and, unless --daemon names
one, drives an in-process fake daemon whose calls it writes to --out.

`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
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
	out := fs.String("out", "", "sim: write the replies, turns and daemon calls here")
	brokerURL := fs.String("broker", "", "broker URL (overrides the config)")
	tokenFile := fs.String("token-file", "", "token file, mode 0600 (overrides the config)")
	daemonURL := fs.String("daemon", "", "the robot daemon's URL (overrides daemon_url; with --sim: drive this daemon, e.g. 'reachyctl fake-daemon' or a real robot, instead of the built-in fake)")
	listDevices := fs.Bool("list-devices", false, "list audio devices and exit")
	showVersion := fs.Bool("version", false, "print the version and exit")
	verbose := fs.Bool("v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "%s\nwhisper.cpp: not linked (speech-to-text runs on the broker)\n", buildinfo.String("reachy-hub"))
		return 0
	}
	inputs = append(inputs, fs.Args()...)
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

	if *sim {
		external := ""
		if *daemonURL != "" {
			external = cfg.DaemonURL
		}
		if err := runSim(ctx, cfg, client, inputs, *out, external, stdout, log); err != nil {
			fmt.Fprintln(stderr, "reachy-hub:", err)
			return 1
		}
		return 0
	}
	if err := runRobot(ctx, cfg, client, log); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "reachy-hub:", err)
		return 1
	}
	return 0
}

func runRobot(ctx context.Context, cfg *robot.Config, client *robot.BrokerClient, log *slog.Logger) error {
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
		Fallback: robot.FallbackSpeech(ctx, cfg.FallbackWAV), MaxUtter: cfg.MaxUtter, Log: log}
	log.Info("reachy-hub listening", "broker", cfg.BrokerURL, "mic", cfg.InputDevice)
	return h.Run(ctx)
}

// runSim runs the loop on WAV files against a real broker, and the in-process fake daemon
// unless daemonURL names one to drive (an external fake or a real robot).
func runSim(ctx context.Context, cfg *robot.Config, client *robot.BrokerClient, inputs []string, out, daemonURL string, stdout io.Writer, log *slog.Logger) error {
	src, err := robot.NewFileSource(inputs, 1.0)
	if err != nil {
		return err
	}
	var fake *robot.FakeDaemon
	if daemonURL == "" {
		fake = robot.NewFakeDaemon()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		srv := &http.Server{Handler: fake, ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(l)
		defer srv.Close()
		daemonURL = "http://" + l.Addr().String()
	}
	d := robot.NewDaemon(daemonURL, 3*time.Second)
	var turns []robot.Turn
	h := &robot.Hub{Source: src, Broker: client, Daemon: d, Speaker: robot.DaemonSpeaker{D: d},
		Motion: robot.NewMotion(d, cfg.Expressions, log), Fallback: robot.FallbackSpeech(ctx, cfg.FallbackWAV),
		MaxUtter: cfg.MaxUtter, Log: log,
		OnTurn: func(t robot.Turn) {
			turns = append(turns, t)
			t.Reply.Audio = ""
			if t.Fallback {
				log.Info("turn", "n", t.Index, "fallback", true, "failure", t.Failure, "err", t.Err)
				return
			}
			log.Info("turn", "n", t.Index, "intent", t.Reply.Intent, "outcome", t.Reply.Outcome, "reply", t.Reply.Reply)
		}}
	if err := h.Run(ctx); err != nil {
		return err
	}
	log.Info("sim finished", "turns", len(turns), "peak_rss_kb", peakRSS())
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var written []string
	for i := range turns {
		if turns[i].SoundPlayed != "" && fake != nil {
			if b := fake.Sound(turns[i].SoundPlayed); b != nil {
				if err := os.WriteFile(filepath.Join(out, turns[i].SoundPlayed), b, 0o644); err != nil {
					return err
				}
				written = append(written, turns[i].SoundPlayed)
			}
		}
		turns[i].Reply.Audio = ""
	}
	write := func(name string, v any) error {
		b, _ := json.MarshalIndent(v, "", "  ")
		written = append(written, name)
		return os.WriteFile(filepath.Join(out, name), append(b, '\n'), 0o644)
	}
	if err := write("turns.json", turns); err != nil {
		return err
	}
	if err := write("motions.json", h.Motion.Events()); err != nil {
		return err
	}
	if fake != nil {
		if err := write("daemon-calls.json", fake.Calls()); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s to %s\n", strings.Join(written, ", "), out)
	return nil
}

// peakRSS reads the process's peak resident set size (Linux), 0 elsewhere.
func peakRSS() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb
		}
	}
	return 0
}
