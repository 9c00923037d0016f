// Command reachyctl is the operator's tool for reachy-broker: it shows how sentences route,
// lints and tests intent tables, transcribes and speaks audio locally, and writes the
// generated whisper test models. Run "reachyctl help" for the list of commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

// command is one reachyctl subcommand.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"transcribe":     {"transcribe --model PATH FILE.wav [--json]: speech to text with whisper.cpp", runTranscribe},
		"speak":          {`speak "text" -o out.wav [--voice V]: text to speech with espeak-ng; the WAV carries its text, which a dev broker without a model takes as the transcript`, runSpeak},
		"gen-test-model": {"gen-test-model --shape tiny|tiny.en --out PATH: write a random-weight whisper model for tests", runGenTestModel},
		"route":          {`route [--broker URL | --state-dir DIR | --config FILE] [--json] [--room ROOM] "sentence": show how a sentence routes and why, with the running broker's table (default: the dev broker at REACHY_BROKER, else the demo home's)`, runRoute},
		"reload":         {"reload [--state-dir DIR]: the broker running on DIR re-reads its intent table (as SIGHUP does), and only that broker", runReload},
		"token":          {"token create|list|revoke|scopes [--state-dir DIR] --device NAME [--scopes a,b] [--node NODE] [--replace] [--json]: device tokens (create --replace: revoke the device's earlier tokens; scopes: replace a device's scopes; default state dir: a dev broker's)", runToken},
		"audit":          {"audit tail [--state-dir DIR] [--json] [-v] [-n N] [--intent I] [--device D] [--since 10m|15:04|RFC3339] [--outcome O]: what the broker did, one line per action (-v: every field in full)", runAudit},
		"announce":       {`announce [--broker URL] [--token-file F] --robot NAME|--all "text": speak an announcement on robots (scope announce)`, runAnnounce},
		"status":         {"status [--state-dir DIR] [--json] [--wait-robot NAME]: the running broker's robots (room, link, state, last turn, quiet time), teleport sessions, timers (who will ring each), missed timers, and whether speech-to-text and the agent are configured", runStatus},
		"state":          {"state init|check|backup FILE|clock [--trust] [--state-dir DIR]: create the broker's state database, check one, copy a running broker's consistently (SQLite's backup API, through its control socket), or show how its store sees the clock (--trust: the clock is right, retention may count by it)", runState},
		"say":            {`say [--broker URL] [--token-file F] "sentence" [-o reply.wav]: send text like a transcript`, runSay},
		"listen":         {"listen [--broker URL] [--token-file F] FILE.wav [-o reply.wav]: send audio as a turn", runListen},
		"bench":          {"bench --concurrency N --turns M [--wav FILE]: drive a broker, print p50/p95/p99 and errors", runBench},
		"redact":         {"redact [--config FILE] [--kinds] < text: print the text as the robot would be allowed to say it", runRedact},
		"fake-daemon":    {"fake-daemon [--listen 127.0.0.1:8000]: a fake Reachy Mini daemon that prints the calls it gets", runFakeDaemon},
		"wake":           {"wake gen [--small] [--sentences FILE] DIR | wake eval [--sensitivity S] [--sweep a,b] [--sentences FILE] DIR | wake test FILE.wav [--config F]: the robot's wake-phrase spotter", runWake},
		"version":        {"version: print the version and the whisper.cpp version", runVersion},
		"intents":        {"intents list|guide|lint [--config FILE] | intents test [--config FILE] FILE | intents remote [--broker URL]: the intent table, or what a token may call", runIntents},
	}
}

// errUsage marks an error caused by how the command was called (exit code 2).
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "reachyctl: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		var ee exitError
		switch {
		case errors.As(err, &ee):
			return ee.code
		case errors.Is(err, flag.ErrHelp):
			return 0 // the flag set printed the usage: asked for, so not an error
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "reachyctl %s: %v\nusage: reachyctl %s\n", args[0], err, c.summary)
			return 2
		default:
			fmt.Fprintf(stderr, "reachyctl %s: %v\n", args[0], err)
			return 1
		}
	}
	return 0
}

// exitError ends the command with a code after it has already said why.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: reachyctl COMMAND [flags]")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %s\n", cmds[n].summary)
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("reachyctl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		if c, ok := commands()[name]; ok {
			fmt.Fprintf(stderr, "usage: reachyctl %s\n", c.summary)
		}
		fs.PrintDefaults()
	}
	return fs
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "%s\nwhisper.cpp %s\n", buildinfo.String("reachyctl"), whisper.Version())
	return nil
}

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func joinWords(args []string) string { return strings.TrimSpace(strings.Join(args, " ")) }
