// Command reachy-broker is the voice broker between an untrusted Reachy Mini and the family's
// home: speech in, an allowlisted intent, a redacted spoken reply out. It serves its API on
// the tailnet (tsnet, port 8092) and /healthz and /metrics on loopback. Without a config file
// it runs the embedded default: loopback dev mode with the demo home.
package main

import (
	"context"
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
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/quiet"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/broker/timers"
	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/agent"
	"github.com/reachy-broker/reachy-broker/intents/basic"
	"github.com/reachy-broker/reachy-broker/intents/home"
	"github.com/reachy-broker/reachy-broker/redact"
	"github.com/reachy-broker/reachy-broker/speech"
	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

func defaultModel() string {
	dir := os.Getenv("REACHY_CACHE_DIR")
	if dir == "" {
		if c, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(c, "reachy-broker")
		}
	}
	for _, m := range []string{"ggml-base.en.bin", "ggml-tiny.en.bin"} {
		p := filepath.Join(dir, "models", m)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

const usageText = `usage: reachy-broker [--config FILE] [--dev] [--listen ADDR] [--admin ADDR] [--state-dir DIR] [--model FILE] [-v]
       reachy-broker --dev --intents FILE [--state-dir DIR] ...
       reachy-broker --version

Without --config it runs the embedded default: loopback dev mode with the demo home (its
lights and AC simulated in memory), state in %s
(one directory per clone and --listen port; timers of an earlier run are let go there — name
a directory with --state-dir to keep them).
--intents FILE layers FILE's intents (its home, and the devices its house section connects)
over that: every other device stays simulated; SIGHUP reloads FILE.
With --config it serves the API on the tailnet; --dev serves it on --listen instead.

`

func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("reachy-broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, usageText, broker.DevStateDirFor("127.0.0.1:PORT"))
		fs.PrintDefaults()
	}
	configPath := fs.String("config", "", "config file (none: loopback dev mode with the demo home)")
	intentsPath := fs.String("intents", "", "dev mode: layer this file's intents (and home, and house devices) over the demo home and its simulated devices")
	dev := fs.Bool("dev", false, "loopback dev mode: serve the API on --listen instead of the tailnet")
	listen := fs.String("listen", broker.DevListen, "dev mode: loopback address for the API (port 0: any free port)")
	devOwner := fs.String("dev-owner", "", "dev mode: serve the teleport console on the loopback API address as this owner's login (loopback connections only)")
	admin := fs.String("admin", "", "loopback address for /healthz and /metrics (default: listen.admin, 127.0.0.1:9092; port 0: any free port)")
	stateDir := fs.String("state-dir", "", "state directory (tokens, audit, idempotency; dev default: one per clone and --listen port, "+broker.DevStateDir()+" for "+broker.DevListen+")")
	model := fs.String("model", "", "whisper model file (default: speech.model, or the one 'make model' downloaded)")
	initState := fs.Bool("init", false, "create the state database (tokens, audit, idempotency) in the state directory, then exit")
	showVersion := fs.Bool("version", false, "print the version and the whisper.cpp version, and exit")
	verbose := fs.Bool("v", false, "debug logging")
	tlsOpts := addTLSFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reachy-broker: unexpected argument %q (flags only; see --help)\n", fs.Arg(0))
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stderr, "%s\nwhisper.cpp %s\n", buildinfo.String("reachy-broker"), whisper.Version())
		return 0
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)

	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// Flags are checked here so an error names the flag, not a config key.
	for name, addr := range map[string]string{"--listen": *listen, "--admin": *admin} {
		if addr == "" || (name == "--listen" && !set["listen"] && *configPath != "") {
			continue
		}
		if _, err := broker.ListenLoopbackCheck(addr); err != nil {
			fmt.Fprintf(stderr, "reachy-broker: %s %s: %v\n", name, addr, err)
			return 2
		}
	}

	var (
		cfg   *broker.Config
		table *intents.Table
		err   error
	)
	if *intentsPath != "" && *configPath != "" {
		fmt.Fprintln(stderr, "reachy-broker: --intents is for a dev broker: it layers a file over the demo home. Use --config FILE or --intents FILE, not both")
		return 2
	}
	switch {
	case *configPath == "":
		*dev = true
		dir := *stateDir
		if dir == "" {
			dir = broker.DevStateDirFor(*listen)
		}
		if *intentsPath != "" {
			cfg, table, err = broker.DevIntentsConfig(*listen, dir, *intentsPath)
		} else {
			cfg, table, err = broker.DevConfig(*listen, dir)
		}
	default:
		cfg, table, err = broker.LoadConfigWith(*configPath, broker.LoadOptions{StateDir: *stateDir})
	}
	if err != nil {
		fmt.Fprintf(stderr, "reachy-broker: the configuration is not valid: %v\n", err)
		return 1
	}
	if *devOwner != "" && !*dev {
		fmt.Fprintln(stderr, "reachy-broker: --dev-owner needs --dev: on the tailnet the console identifies owners by their Tailscale login")
		return 2
	}
	tables := broker.NewTables(cfg, table, nil) // before the flags below change cfg
	if *configPath != "" && *stateDir != "" {
		cfg.StateDir = *stateDir
	}
	if *configPath != "" && *dev {
		cfg.Listen.Loopback = *listen
	}
	if *admin != "" {
		cfg.Listen.Admin = *admin
	}
	if err := tlsOpts.apply(cfg); err != nil {
		fmt.Fprintf(stderr, "reachy-broker: %v\n", err)
		return 2
	}
	if *initState {
		hold, err := store.HoldDir(cfg.StateDir, true)
		if err != nil {
			fmt.Fprintf(stderr, "reachy-broker: %v\n", err)
			return 1
		}
		defer hold.Release()
		st, err := store.Init(cfg.StateDir)
		if err != nil {
			log.Error("state init", "err", err)
			fmt.Fprintf(stderr, "reachy-broker: %v\n", err)
			return 1
		}
		st.Close()
		fmt.Fprintf(stderr, "state database ready in %s; start reachy-broker without --init\n", cfg.StateDir)
		return 0
	}
	// A dev broker on its default state directory starts without an earlier run's timers.
	forgetTimers := *dev && *configPath == "" && *stateDir == ""
	if err := serve(ctx, log, stderr, cfg, tables, *dev, forgetTimers, *devOwner, *model); err != nil {
		log.Error("reachy-broker stopped", "err", err)
		fmt.Fprintf(stderr, "reachy-broker: %v\n", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, log *slog.Logger, stderr io.Writer, cfg *broker.Config, tables *broker.Tables, dev, forgetTimers bool, devOwner, modelFlag string) error {
	ownTLS, tlsErr := loadConsoleTLS(cfg, log)
	if tlsErr != nil {
		return tlsErr
	}
	// One broker per state directory: held before the database opens, so a second broker
	// says which process has it (reachyctl never takes it: it reaches a running broker
	// through the control socket).
	hold, err := store.HoldDir(cfg.StateDir, dev)
	if err != nil {
		return err
	}
	defer hold.Release()
	state, err := openState(log, cfg.StateDir, dev)
	if err != nil {
		return err
	}
	defer state.Close()
	// reachyctl reaches the state through the broker while it runs (the database is locked).
	controlCtx, stopControl := context.WithCancel(ctx)
	controlDone := make(chan struct{})
	live := &broker.LiveStatus{} // reachyctl status, once the broker is built
	go func() {
		defer close(controlDone)
		if err := broker.ServeControlWith(controlCtx, state, live, log); err != nil {
			log.Error("control socket: reachyctl token/audit/backup cannot reach this broker", "err", err)
		}
	}()
	defer func() { stopControl(); <-controlDone }()

	deps := broker.Deps{Config: cfg, Table: tables.Table, Reloads: tables, State: state, Logger: log, Handlers: basic.Handlers(time.Now)}
	deps.Handlers["webhook"] = home.Webhook{}
	var sim home.Backend
	switch {
	case cfg.Demo():
		// The demo home has no real devices: they are simulated in memory so the tour works.
		house := home.NewMemory()
		sim = house
		deps.Handlers["home.light"] = home.Handler{Backend: house, Kind: "light"}
		deps.Handlers["home.ac"] = home.Handler{Backend: house, Kind: "ac"}
		if f := cfg.DevFile(); f != "" {
			log.Info("dev mode: "+f+" is layered over the demo home; lights and AC it does not connect are simulated in memory",
				"intents", len(tables.Table().Intents()), "connected", len(cfg.House.Devices))
		} else {
			log.Info("demo home: lights and AC are simulated in memory")
		}
	case !cfg.HasHouse():
		log.Warn(cfg.Path() + " has no house section: light and AC intents answer \"I can't do that yet\" " +
			"(the demo home's simulated devices run only without --config; see docs/home.md to connect Home Assistant or MQTT)")
	}
	if !cfg.Demo() && !cfg.HasHome() {
		log.Warn(cfg.Path() + " has no home section: the intent table uses the demo home's rooms and people (kitchen, living room, ...; mom, dad)")
	}
	if err := wireHouse(cfg, deps.Handlers, sim, log); err != nil {
		return err
	}
	if cfg.Agent.BaseURL != "" {
		key, err := broker.ReadSecret(cfg.Agent.APIKeyFile, cfg.Agent.APIKeyEnv)
		if err != nil {
			return err
		}
		a, err := agent.New(agent.Config{BaseURL: cfg.Agent.BaseURL, APIKey: key, FastModel: cfg.Agent.FastModel, DeepModel: cfg.Agent.DeepModel,
			Fallbacks: cfg.Agent.Fallbacks, Persona: cfg.Agent.Persona, MaxTokens: cfg.Agent.MaxTokens, AttemptTimeout: cfg.Agent.AttemptTimeout})
		if err != nil {
			return err
		}
		deps.Handlers["agent"] = a
		log.Info("general questions go to the lean agent", "base_url", cfg.Agent.BaseURL, "model", cfg.Agent.FastModel)
	}
	if len(cfg.Calendars.People) > 0 {
		h, err := calendarHandler(cfg, tables.Table())
		if err != nil {
			return err
		}
		deps.Handlers["calendar"] = h
	}
	terms, err := cfg.RedactTerms()
	if err != nil {
		return err
	}
	if deps.Redactor, err = redact.New(redact.Config{Terms: terms, MaxChars: cfg.Redact.MaxChars}); err != nil {
		return err
	}
	switch cfg.Synthesis.Engine {
	case "espeak":
		deps.Synthesizer = speech.Espeak{Voice: cfg.Synthesis.Voice, Rate: cfg.Synthesis.Rate}
	case "openai":
		key, err := broker.ReadSecret(cfg.Synthesis.APIKeyFile, cfg.Synthesis.APIKeyEnv)
		if err != nil {
			return err
		}
		deps.Synthesizer = speech.NewOpenAISpeech(cfg.Synthesis.URL, key, cfg.Synthesis.Model, cfg.Synthesis.Voice)
	}

	// Timers and announcements speak first, over the robot link; the scheduler starts with
	// the service and keeps the timers that survived a restart.
	var b *broker.Broker
	redactText := broker.SpeakableText(deps.Redactor) // the same two passes as a reply
	deps.Quiet = quiet.New(time.Now)                  // quiet time ("be quiet for an hour"): announcements and repeated rings chime only
	tsvc, err := timers.Open(ctx, timers.Deps{DB: state.DB(), Synth: deps.Synthesizer, Redact: redactText, Audit: broker.TimerAudit(state),
		Quiet:         deps.Quiet.Quiet,
		ForgetEarlier: forgetTimers,
		RoomOf: func(device string) string {
			if r := cfg.DeviceRoom(device); r != "" {
				return r
			}
			return tables.Table().Home.DeviceRoom
		},
		FollowUp: func(device string) { b.OpenFollowUp(device) },
		Robots:   func() []string { return b.RobotNames() }, // a timer no robot can ring says so
		Settings: timers.Settings{Every: cfg.Timers.RepeatEvery, Rings: cfg.Timers.Rings, Grace: cfg.Timers.Grace,
			Expression: cfg.Timers.Expression, MaxPerRoom: cfg.Timers.MaxPerRoom},
		Logger: log})
	if err != nil {
		return err
	}
	tsvc.Register(deps.Handlers)
	deps.Timers = tsvc
	announcer := &announce.Announcer{Synth: deps.Synthesizer, Redact: redactText, Audit: broker.AnnouncementAudit(state), Log: log}
	deps.Announcer = announcer

	modelPath := modelFlag
	if modelPath == "" {
		modelPath = cfg.Speech.Model
	}
	if modelPath == "" {
		modelPath = defaultModel()
	}
	if modelPath == "" && dev {
		deps.DevClipText = true
		log.Warn("no whisper model: dev mode takes the words a clip made by 'reachyctl speak' carries as its transcript (labelled dev_clip_text in the log and audit); " +
			"any other audio turn answers busy. Text turns work (reachyctl say). Download a model with 'make model'.")
	} else if modelPath == "" {
		log.Warn("no whisper model: POST /v1/turns answers busy until one is configured; text turns work (reachyctl say). Download one with 'make model'.")
	} else {
		eng, err := whisper.Load(whisper.Config{ModelPath: modelPath, Workers: cfg.Speech.Workers, Queue: cfg.Speech.Queue, Logger: log})
		if err != nil {
			return err
		}
		defer eng.Close()
		opts := broker.SpeechOptions(cfg, tables.Table())
		deps.Transcriber = broker.WhisperTranscriber{Engine: eng, Options: opts}
		deps.SpeechModel = modelPath
		log.Info("speech-to-text ready", "model", modelPath, "threads", cfg.Speech.Threads, "workers", cfg.Speech.Workers,
			"max_tokens", opts.MaxTokens, "prompt", opts.InitialPrompt)
	}

	var apiListener, httpsListener net.Listener
	if dev || cfg.Listen.Loopback != "" {
		addr := cfg.Listen.Loopback
		apiListener, err = broker.ListenLoopback(addr)
		if err != nil {
			return inUse(err, "--listen", addr)
		}
		defer apiListener.Close()
		deps.DevOwner = devOwner
		if httpsListener, err = ownTLS.listenLoopback(cfg, &deps); err != nil {
			return err
		}
	} else {
		key, err := broker.ReadSecret(cfg.Listen.Tailnet.AuthKeyFile, cfg.Listen.Tailnet.AuthKeyEnv)
		if err != nil {
			return err
		}
		tsDir := cfg.Listen.Tailnet.StateDir
		if tsDir == "" {
			tsDir = filepath.Join(cfg.StateDir, "tailnet")
		}
		upCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		tn, err := broker.StartTailnet(upCtx, broker.TailnetConfig{Hostname: cfg.Listen.Tailnet.Hostname, StateDir: tsDir, AuthKey: key,
			Ephemeral: cfg.Listen.Tailnet.Ephemeral, ControlURL: cfg.Listen.Tailnet.ControlURL, Logf: func(f string, a ...any) { log.Debug(fmt.Sprintf(f, a...), "component", "tsnet") }})
		cancel()
		if err != nil {
			return err
		}
		defer tn.Close()
		deps.Identifier = tn
		deps.People = tn // the teleport console: owners by their Tailscale login
		if apiListener, err = tn.Listen(cfg.Listen.Tailnet.Port); err != nil {
			return err
		}
		if httpsListener, err = ownTLS.listenTailnet(ctx, tn, cfg, &deps, log); err != nil {
			return err
		}
		ip4, _ := tn.IPs()
		log.Info("serving on the tailnet", "hostname", cfg.Listen.Tailnet.Hostname, "ip", ip4, "port", cfg.Listen.Tailnet.Port)
		log.Info("MCP for the owner's agents", "url", fmt.Sprintf("http://%s:%d/mcp", cfg.Listen.Tailnet.Hostname, cfg.Listen.Tailnet.Port), "scope", "mcp")
	}

	if b, err = broker.New(deps); err != nil {
		return err
	}
	defer b.Close() // after the listeners (deferred below) stop: games in play are ended and audited
	live.Attach(b)
	announcer.Link = b.Robots()
	announcer.Known = b.KnownRobot // an unknown target is audited as "unknown", not as typed
	tsvc.SetLink(b.Robots())
	go b.ConnectTimers(ctx, tsvc)
	go tsvc.Run(ctx)
	adminL, err := broker.ListenLoopback(cfg.Listen.Admin)
	if err != nil {
		return inUse(err, "--admin", cfg.Listen.Admin)
	}
	go broker.Serve(ctx, &http.Server{Handler: b.AdminHandler(), ReadHeaderTimeout: 5 * time.Second}, adminL, time.Second)
	go b.Maintain(ctx)
	go b.RunConsole(ctx)
	if httpsListener != nil {
		go broker.Serve(ctx, broker.NewHTTPServer(b.Handler(), cfg.Turn.Budget), httpsListener, cfg.Turn.Budget+5*time.Second)
		log.Info("the teleport console over HTTPS; plain HTTP console requests are redirected there", "url", consoleURL(deps.ConsoleHTTPS))
	}
	defer b.Link().Close() // hubs redial whoever serves next
	reloadOnHUP(ctx, log, tables)
	if dev {
		fmt.Fprintf(stderr, "\n  DEV MODE: loopback only, not on a tailnet.\n  API on http://%s   health on http://%s/healthz\n  State in %s\n"+
			"  Create a token (in another terminal), then talk to it:\n"+
			"    export REACHY_BROKER=http://%s\n"+
			"    export REACHY_TOKEN=$(%s token create --state-dir %s --device laptop --scopes "+tourScopes+")\n"+
			"    %s say \"turn on the kitchen light\"\n"+
			"  Agents (MCP): http://%s/mcp with a token that also holds the mcp scope (docs/mcp.md)\n  Ctrl-C stops it.\n\n",
			apiListener.Addr(), adminL.Addr(), cfg.StateDir, apiListener.Addr(), ctlPath(), shellQuote(cfg.StateDir), ctlPath(), apiListener.Addr())
		if devOwner != "" {
			fmt.Fprintf(stderr, "  Teleport console: http://%s/ as %s (every loopback connection is this owner)\n\n", apiListener.Addr(), devOwner)
		} else {
			fmt.Fprintf(stderr, "  Teleport console: closed (no owner); restart with --dev-owner you@example.com (make run DEV_OWNER=you@example.com)\n\n")
		}
	}
	log.Info("reachy-broker ready", "api", apiListener.Addr().String(), "admin", adminL.Addr().String(), "state_dir", cfg.StateDir, "intents", len(tables.Table().Intents()))
	err = broker.Serve(ctx, broker.NewHTTPServer(b.Handler(), cfg.Turn.Budget), apiListener, cfg.Turn.Budget+5*time.Second)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// openState opens the state database. Outside dev mode a missing or empty one is refused
// (a state disk that did not mount must not become a broker with no tokens and no audit
// history); dev mode creates its own.
func openState(log *slog.Logger, dir string, dev bool) (*store.Store, error) {
	if !dev {
		return store.OpenWith(dir, store.Options{Log: log})
	}
	st, err := store.OpenWith(dir, store.Options{Log: log})
	if errors.Is(err, store.ErrNoState) {
		log.Warn("dev mode: creating a fresh state database", "dir", dir)
		return store.OpenWith(dir, store.Options{Create: true, Log: log})
	}
	return st, err
}

// inUse turns "address already in use" into a sentence that says what to do.
func inUse(err error, flagName, addr string) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("%s %s is already in use: is another reachy-broker running (make run, or the tour's)? Stop it, or pass %s 127.0.0.1:0 for any free port", flagName, addr, flagName)
	}
	return fmt.Errorf("%s %s: %w", flagName, addr, err)
}

// reloadOnHUP re-reads the config on SIGHUP; a file that fails keeps the table in use, and
// /healthz says so. The signal is caught before it returns, so a SIGHUP sent once the broker
// says it is ready never ends the process.
func reloadOnHUP(ctx context.Context, log *slog.Logger, tables *broker.Tables) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	go func() {
		defer signal.Stop(ch)
		for {
			select {
			case <-ctx.Done():
				return
			case <-ch:
				if err := tables.Reload(); err != nil {
					log.Error("intent table reload failed; /healthz says the table is stale", "err", err)
				} else {
					log.Info("intent table reloaded", "intents", len(tables.Table().Intents()))
				}
			}
		}
	}()
}
