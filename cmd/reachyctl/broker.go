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
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

func runToken(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("token", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	device := fs.String("device", "", "device name")
	scopes := fs.String("scopes", "", "comma-separated scopes: turn,intent,text,house:read,house:write,calendar:read,ask,robot,timer,link,announce,mcp,play (play: games; grant it to a robot only if you want it to play)")
	node := fs.String("node", "", "tailnet node (name or stable node ID) the token is bound to; pinned to the node's stable ID on first use, refused from any other node and on a listener without tailnet identity")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *stateDir == "" {
		return usagef("token create|list|revoke|scopes --state-dir DIR [--device NAME]")
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
		secret, info, err := st.CreateToken(ctx, *device, strings.Split(*scopes, ","), *node)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(map[string]any{"token": secret, "id": info.ID, "device": info.Device, "scopes": info.Scopes, "node": info.Node})
		}
		fmt.Fprintln(stdout, secret)
		fmt.Fprintf(stderr, "token %s for %s (scopes %s) stored as a hash in %s. It is shown once.\n", info.ID, info.Device, strings.Join(info.Scopes, ","), *stateDir)
	case "list":
		list, err := st.ListTokens(ctx, *device)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(list)
		}
		fmt.Fprintf(stdout, "%-12s  %-16s %-40s %-17s %s\n", "ID", "DEVICE", "SCOPES", "NODE", "STATUS")
		for _, t := range list {
			status := "live"
			if t.Revoked != nil {
				status = "revoked " + t.Revoked.Format(time.RFC3339)
			}
			node := t.Node
			switch {
			case node == "":
				node = "-"
			case t.NodeID == "":
				node += " (not yet used)"
			}
			fmt.Fprintf(stdout, "%-12s  %-16s %-40s %-17s %s\n", t.ID, t.Device, strings.Join(t.Scopes, ","), node, status)
		}
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

func runState(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("state", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	usage := usagef("state init|check|backup FILE --state-dir DIR")
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
		st, err := broker.InitState(*stateDir)
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
	case pos[0] == "init", pos[0] == "check", pos[0] == "backup":
		return usage
	default:
		return usagef("unknown state subcommand %q", pos[0])
	}
	return nil
}

// stateStore is what reachyctl's token, audit and state commands need of the broker's
// state: a *broker.State when no broker runs on the directory, or a *broker.ControlClient
// asking the running broker, which holds the database's lock.
type stateStore interface {
	CreateToken(ctx context.Context, device string, scopes []string, node string) (string, broker.TokenInfo, error)
	ListTokens(ctx context.Context, device string) ([]broker.TokenInfo, error)
	RevokeTokens(ctx context.Context, device string) (int, error)
	SetScopes(ctx context.Context, device string, scopes []string) (int, error)
	TailAudit(ctx context.Context, n int) ([]broker.AuditRecord, error)
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
			s, err := broker.OpenStateQuick(dir)
			switch {
			case err == nil:
				return s, nil
			case errors.Is(err, broker.ErrNoState), errors.Is(err, broker.ErrStateLocked):
				last = err // a broker starting: its tables or its socket are on their way
			default:
				return nil, err
			}
		}
		if time.Now().After(deadline) {
			break
		}
	}
	if errors.Is(last, broker.ErrStateLocked) {
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
