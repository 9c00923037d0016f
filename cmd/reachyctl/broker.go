package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/api"
)

func runToken(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("token", stderr)
	stateDir := fs.String("state-dir", "", "the broker's state directory")
	device := fs.String("device", "", "device name")
	scopes := fs.String("scopes", "", "comma-separated scopes: turn,intent,text,house:read,house:write,calendar:read,ask,robot")
	node := fs.String("node", "", "tailnet node the token is bound to (refused from any other node)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *stateDir == "" {
		return usagef("token create|list|revoke --state-dir DIR [--device NAME]")
	}
	st, err := openState(*stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
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
		fmt.Fprintf(stderr, "token %s for %s (scopes %s). It is shown once and stored only as a hash.\n", info.ID, info.Device, strings.Join(info.Scopes, ","))
	case "list":
		list, err := st.ListTokens(ctx, *device)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(list)
		}
		for _, t := range list {
			status := "live"
			if t.Revoked != nil {
				status = "revoked " + t.Revoked.Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "%s  %-16s %-40s node=%-12s %s\n", t.ID, t.Device, strings.Join(t.Scopes, ","), t.Node, status)
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
	default:
		return usagef("unknown token subcommand %q", pos[0])
	}
	return nil
}

// openState opens the broker's existing state database. A broker just started in the
// background (the README tour) may not have created it yet, so a missing one is waited for
// briefly; it is never created here (that is `state init`'s job).
func openState(dir string) (*broker.State, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, err := broker.OpenState(dir)
		if err == nil || !errors.Is(err, broker.ErrNoState) || time.Now().After(deadline) {
			return st, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func runState(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("state", stderr)
	stateDir := fs.String("state-dir", "", "the broker's state directory")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *stateDir == "" {
		return usagef("state init|check --state-dir DIR")
	}
	var st *broker.State
	switch pos[0] {
	case "init":
		st, err = broker.InitState(*stateDir)
	case "check":
		st, err = broker.OpenState(*stateDir) // opening runs PRAGMA quick_check
	default:
		return usagef("unknown state subcommand %q", pos[0])
	}
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintf(stdout, "state database in %s is ready\n", *stateDir)
	return nil
}

func runAudit(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("audit", stderr)
	stateDir := fs.String("state-dir", "", "the broker's state directory")
	n := fs.Int("n", 20, "how many records")
	asJSON := fs.Bool("json", false, "print JSON lines")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "tail" || *stateDir == "" {
		return usagef("audit tail --state-dir DIR [--json] [-n N]")
	}
	st, err := openState(*stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	recs, err := st.TailAudit(context.Background(), *n)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, r := range recs {
		if *asJSON {
			enc.Encode(r)
			continue
		}
		args, _ := json.Marshal(r.Args)
		fmt.Fprintf(stdout, "%s %-10s %-9s %-18s %-30s %-8s %5dms %s %s\n", r.Time.Local().Format("15:04:05"), r.Device, r.Route, r.Intent, args, r.Outcome, r.LatencyMS, r.Code, strings.Join(r.Redactions, ","))
	}
	return nil
}

// client flags shared by say, listen, intents-remote and bench.
type clientFlags struct {
	url, token, tokenFile *string
}

func addClientFlags(fs *flag.FlagSet) clientFlags {
	return clientFlags{
		url:       fs.String("broker", envOr("REACHY_BROKER", "http://127.0.0.1:8092"), "broker URL (env REACHY_BROKER)"),
		token:     fs.String("token", "", "bearer token (prefer --token-file or env REACHY_TOKEN)"),
		tokenFile: fs.String("token-file", "", "file holding the bearer token"),
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func (c clientFlags) bearer() (string, error) {
	if *c.token != "" {
		return *c.token, nil
	}
	if *c.tokenFile != "" {
		b, err := os.ReadFile(*c.tokenFile)
		return strings.TrimSpace(string(b)), err
	}
	if t := os.Getenv("REACHY_TOKEN"); t != "" {
		return t, nil
	}
	return "", errors.New("no token: pass --token-file, --token or set REACHY_TOKEN")
}

// httpClient never follows a redirect: a token must not travel to another origin.
func httpClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func post(c clientFlags, path, ctype string, body []byte, key string) (int, []byte, time.Duration, error) {
	tok, err := c.bearer()
	if err != nil {
		return 0, nil, 0, err
	}
	u, err := url.JoinPath(*c.url, path)
	if err != nil {
		return 0, nil, 0, err
	}
	if i := strings.Index(path, "?"); i >= 0 {
		u, _ = url.JoinPath(*c.url, path[:i])
		u += path[i:]
	}
	req, err := http.NewRequest("POST", u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", ctype)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	start := time.Now()
	resp, err := httpClient(60 * time.Second).Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	return resp.StatusCode, b, time.Since(start), err
}

func printTurn(stdout io.Writer, status int, body []byte, asJSON bool, saveAudio string) error {
	if asJSON || status != 200 {
		stdout.Write(bytes.TrimSpace(body))
		fmt.Fprintln(stdout)
		if status != 200 {
			return exitError{1}
		}
		return nil
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
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	text := joinWords(pos)
	if text == "" {
		return usagef(`say "sentence"`)
	}
	body, _ := json.Marshal(map[string]any{"text": text, "audio": *out != ""})
	status, resp, _, err := post(c, "/v1/utterances", "application/json", body, "")
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
	pos, err := parseInterspersed(fs, args)
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
	status, resp, _, err := post(c, "/v1/turns", "audio/wav", wav, fmt.Sprintf("ctl-%d", time.Now().UnixNano()))
	if err != nil {
		return err
	}
	return printTurn(stdout, status, resp, *asJSON, *out)
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	c := addClientFlags(fs)
	conc := fs.Int("concurrency", 4, "requests in flight")
	turns := fs.Int("turns", 100, "total requests")
	wavPath := fs.String("wav", "", "send this WAV to /v1/turns (default: text to /v1/utterances)")
	text := fs.String("text", "what time is it", "sentence for /v1/utterances")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if *conc < 1 || *turns < 1 || *turns > 100000 {
		return usagef("--concurrency >= 1, --turns 1..100000")
	}
	var body []byte
	path, ctype := "/v1/utterances", "application/json"
	if *wavPath != "" {
		b, err := os.ReadFile(*wavPath)
		if err != nil {
			return err
		}
		body, path, ctype = b, "/v1/turns?audio=none", "audio/wav"
	} else {
		body, _ = json.Marshal(map[string]string{"text": *text})
	}
	var (
		mu   sync.Mutex
		lat  []time.Duration
		errs = map[string]int{}
		wg   sync.WaitGroup
	)
	jobs := make(chan int)
	start := time.Now()
	for range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				status, resp, d, err := post(c, path, ctype, body, "")
				mu.Lock()
				switch {
				case err != nil:
					errs["transport"]++
				case status != 200:
					var e api.ErrorBody
					json.Unmarshal(resp, &e)
					errs[e.Error.Code]++
				default:
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < *turns; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	wall := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Fprintf(stdout, "%d requests, concurrency %d, %s in %v (%.1f/s)\n", *turns, *conc, path, wall.Round(time.Millisecond), float64(*turns)/wall.Seconds())
	fmt.Fprintf(stdout, "ok %d  p50 %v  p95 %v  p99 %v\n", len(lat), pct(0.50).Round(time.Microsecond*10), pct(0.95).Round(time.Microsecond*10), pct(0.99).Round(time.Microsecond*10))
	failed := 0
	for code, n := range errs {
		fmt.Fprintf(stdout, "error %s: %d\n", code, n)
		failed += n
	}
	fmt.Fprintf(stdout, "total: %d ok, %d errors\n", len(lat), failed)
	return nil
}
