package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

func runToken(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("token", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	device := fs.String("device", "", "device name")
	scopes := fs.String("scopes", "", "comma-separated scopes: turn,intent,text,house:read,house:write,calendar:read,ask,robot,timer,link,announce,mcp,play (play: games; grant it to a robot only if you want it to play)")
	node := fs.String("node", "", "tailnet node (name or stable node ID) the token is bound to; pinned to the node's stable ID on first use, refused from any other node and on a listener without tailnet identity")
	replace := fs.Bool("replace", false, "token create: revoke the device's earlier tokens in the same step (re-enrolling a device)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *stateDir == "" {
		return usagef("token create|list|revoke|scopes --state-dir DIR [--device NAME] [--replace]")
	}
	if *replace && pos[0] != "create" {
		return usagef("--replace goes with token create")
	}
	ctx := context.Background()
	st, err := openStore(ctx, *stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	switch pos[0] {
	case "create":
		if *device == "" || *scopes == "" {
			return usagef("token create needs --device and --scopes")
		}
		var secret string
		var info store.TokenInfo
		revoked := 0
		if *replace {
			secret, info, revoked, err = st.ReplaceToken(ctx, *device, strings.Split(*scopes, ","), *node)
		} else {
			secret, info, err = st.CreateToken(ctx, *device, strings.Split(*scopes, ","), *node)
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(map[string]any{"token": secret, "id": info.ID, "device": info.Device, "scopes": info.Scopes, "node": info.Node, "revoked": revoked})
		}
		fmt.Fprintln(stdout, secret)
		fmt.Fprintf(stderr, "token %s for %s (scopes %s) stored as a hash in %s. It is shown once.\n", info.ID, info.Device, strings.Join(info.Scopes, ","), *stateDir)
		if *replace {
			fmt.Fprintf(stderr, "revoked %d earlier token(s) of %s\n", revoked, info.Device)
		}
	case "list":
		list, err := st.ListTokens(ctx, *device)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(list)
		}
		printTokens(stdout, list)
	case "revoke":
		if *device == "" {
			return usagef("token revoke needs --device")
		}
		n, err := st.RevokeTokens(ctx, *device)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %d token(s) of %s\n", n, *device)
	case "scopes":
		if *device == "" || *scopes == "" {
			return usagef("token scopes needs --device and --scopes")
		}
		n, err := st.SetScopes(ctx, *device, strings.Split(*scopes, ","))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d token(s) of %s now hold %s\n", n, *device, *scopes)
	default:
		return usagef("unknown token subcommand %q", pos[0])
	}
	return nil
}

// printTokens prints tokens as a table in aligned columns, dates to the minute in local time.
func printTokens(w io.Writer, list []store.TokenInfo) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDEVICE\tSCOPES\tNODE\tCREATED\tLAST USED\tSTATUS")
	day := func(t *time.Time) string {
		if t == nil || t.IsZero() {
			return "never"
		}
		return t.Local().Format("2006-01-02 15:04")
	}
	for _, t := range list {
		status := "live"
		if t.Revoked != nil {
			status = "revoked " + day(t.Revoked)
		}
		node := t.Node
		switch {
		case node == "":
			node = "-"
		case t.NodeID == "":
			node += " (not yet used)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Device, strings.Join(t.Scopes, ","), node, day(&t.Created), day(t.LastUsed), status)
	}
	tw.Flush()
}

func runState(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("state", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	trust := fs.Bool("trust", false, "state clock: tell the store the wall clock is right, so retention and key expiry count by it at once")
	asJSON := fs.Bool("json", false, "state clock: print JSON")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	usage := usagef("state init|check|backup FILE|clock [--trust] --state-dir DIR")
	if *trust && (len(pos) == 0 || pos[0] != "clock") {
		return usagef("--trust goes with state clock")
	}
	if len(pos) < 1 || *stateDir == "" {
		return usage
	}
	ctx := context.Background()
	switch {
	case pos[0] == "init" && len(pos) == 1:
		if c, err := broker.DialControl(ctx, *stateDir); err == nil {
			c.Close()
			return fmt.Errorf("a broker is running on %s: its state database is ready", *stateDir)
		}
		st, err := store.Init(*stateDir)
		if err != nil {
			return err
		}
		st.Close()
		fmt.Fprintf(stdout, "state database in %s is ready\n", *stateDir)
	case pos[0] == "check" && len(pos) == 1:
		st, err := openStore(ctx, *stateDir) // opening runs PRAGMA quick_check too
		if err != nil {
			return err
		}
		defer st.Close()
		if err := st.Check(ctx); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "state database in %s is ready\n", *stateDir)
	case pos[0] == "backup" && len(pos) == 2:
		dst, err := filepath.Abs(pos[1])
		if err != nil {
			return err
		}
		st, err := openStore(ctx, *stateDir)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := st.Backup(ctx, dst); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "a consistent copy of %s is in %s (checked); restore it by stopping the broker and putting it in place of broker.db\n",
			filepath.Join(*stateDir, "broker.db"), dst)
	case pos[0] == "clock" && len(pos) == 1:
		st, err := openStore(ctx, *stateDir)
		if err != nil {
			return err
		}
		defer st.Close()
		get := st.Clock
		if *trust {
			get = st.TrustClock
		}
		c, err := get(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(c)
		}
		printClock(stdout, c, *trust)
	case pos[0] == "init", pos[0] == "check", pos[0] == "backup", pos[0] == "clock":
		return usage
	default:
		return usagef("unknown state subcommand %q", pos[0])
	}
	return nil
}

// printClock says how the store sees the clock, and what that means for retention.
func printClock(w io.Writer, c store.ClockState, trusted bool) {
	fmt.Fprintf(w, "wall clock:       %s\n", c.Now.Local().Format(time.RFC3339))
	fmt.Fprintf(w, "jumps seen:       %d", c.Jumps)
	if c.Jumps > 0 {
		fmt.Fprintf(w, " (the last %s %s)", c.LastJump.Abs().Round(time.Second), map[bool]string{true: "back", false: "ahead"}[c.LastJump < 0])
	}
	fmt.Fprintln(w)
	switch {
	case c.AgreedSince.IsZero():
		fmt.Fprintln(w, "agreed:           the operator trusts this clock: retention and key expiry count by it")
	default:
		fmt.Fprintf(w, "agreed since:     %s (%s)\n", c.AgreedSince.Local().Format(time.RFC3339), c.AgreedFor().Round(time.Minute))
		fmt.Fprintln(w, "retention:        audit records go once the clock has agreed for longer than the audit retention, keys after a day;")
		fmt.Fprintln(w, "                  if the clock is right, `reachyctl state clock --trust` lets retention count by it now")
	}
	if trusted {
		fmt.Fprintln(w, "the store now trusts the wall clock; the next purge (at start, then hourly) removes what it says is past retention")
	}
}

// stateStore is what reachyctl's token, audit and state commands need of the broker's
// state: a *store.Store when no broker runs on the directory, or a *broker.ControlClient
// asking the running broker, which holds the database's lock.
type stateStore interface {
	CreateToken(ctx context.Context, device string, scopes []string, node string) (string, store.TokenInfo, error)
	ListTokens(ctx context.Context, device string) ([]store.TokenInfo, error)
	RevokeTokens(ctx context.Context, device string) (int, error)
	SetScopes(ctx context.Context, device string, scopes []string) (int, error)
	ReplaceToken(ctx context.Context, device string, scopes []string, node string) (string, store.TokenInfo, int, error)
	TailAudit(ctx context.Context, n int) ([]store.AuditRecord, error)
	Clock(ctx context.Context) (store.ClockState, error)
	TrustClock(ctx context.Context) (store.ClockState, error)
	Check(ctx context.Context) error
	Backup(ctx context.Context, dst string) error
	Close() error
}

// openStore reaches the broker's state in dir: through the control socket of a broker
// running there, or, when none runs, by opening the database. It refuses a directory that
// holds none: a typo in --state-dir must not quietly create an empty database the broker
// never reads. A broker just started in the background ("reachy-broker --dev &", the README
// tour) may not have created its database or its socket yet: the wait is bounded by
// stateWait. It never creates a database (`reachyctl state init` does that).
func openStore(ctx context.Context, dir string) (stateStore, error) {
	var last error
	for deadline := time.Now().Add(stateWait); ; time.Sleep(100 * time.Millisecond) {
		if c, err := broker.DialControl(ctx, dir); err == nil {
			return c, nil
		}
		if st, err := os.Stat(filepath.Join(dir, "broker.db")); err == nil && st.Size() > 0 {
			s, err := store.OpenQuick(dir)
			switch {
			case err == nil:
				return s, nil
			case errors.Is(err, store.ErrNoState), errors.Is(err, store.ErrLocked):
				last = err // a broker starting: its tables or its socket are on their way
			default:
				return nil, err
			}
		}
		if time.Now().After(deadline) {
			break
		}
	}
	if errors.Is(last, store.ErrLocked) {
		return nil, fmt.Errorf("%w; a broker holds it but its control socket (%s) does not answer: is it still starting, or was it started by another user?", last, broker.ControlSocket(dir))
	}
	if last != nil {
		return nil, last
	}
	return nil, fmt.Errorf("no broker state in %s (no broker.db there): is that the --state-dir the broker uses? A dev broker prints its state dir when it starts and creates it; for a configured broker run `reachyctl state init --state-dir %s` once", dir, dir)
}

const stateWait = 5 * time.Second

func printTurn(stdout io.Writer, status int, body []byte, asJSON bool, saveAudio string) error {
	if asJSON {
		stdout.Write(bytes.TrimSpace(body))
		fmt.Fprintln(stdout)
		if status != 200 {
			return exitError{1}
		}
		return nil
	}
	if status != 200 {
		return refusal(status, body)
	}
	var tr api.TurnResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		return fmt.Errorf("bad reply: %w", err)
	}
	args, _ := json.Marshal(tr.Args)
	fmt.Fprintf(stdout, "%s %s -> %s\n  %q\n  expression=%s follow_up=%v latency=%dms turn=%s\n", tr.Intent, args, tr.Outcome, tr.Reply, tr.Expression, tr.FollowUp, tr.LatencyMS["total"], tr.TurnID)
	if saveAudio != "" && tr.Audio != "" {
		wav, err := base64.StdEncoding.DecodeString(tr.Audio)
		if err != nil {
			return err
		}
		if err := os.WriteFile(saveAudio, wav, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  reply audio saved to %s\n", saveAudio)
	}
	return nil
}

func runSay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("say", stderr)
	c := addClientFlags(fs)
	asJSON := fs.Bool("json", false, "print the raw reply")
	out := fs.String("o", "", "save the spoken reply (WAV) here")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	text := joinWords(pos)
	if text == "" {
		return usagef(`say "sentence"`)
	}
	body, _ := json.Marshal(map[string]any{"text": text, "audio": *out != ""})
	status, resp, _, err := c.do(httpClient(60*time.Second), http.MethodPost, "/v1/utterances", "application/json", body, "")
	if err != nil {
		return err
	}
	return printTurn(stdout, status, resp, *asJSON, *out)
}

func runListen(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("listen", stderr)
	c := addClientFlags(fs)
	asJSON := fs.Bool("json", false, "print the raw reply")
	out := fs.String("o", "reply.wav", "save the spoken reply (WAV) here")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("listen FILE.wav")
	}
	wav, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	status, resp, _, err := c.do(httpClient(60*time.Second), http.MethodPost, "/v1/turns", "audio/wav", wav, fmt.Sprintf("ctl-%d", time.Now().UnixNano()))
	if err != nil {
		return err
	}
	return printTurn(stdout, status, resp, *asJSON, *out)
}
