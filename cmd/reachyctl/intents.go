package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/intents"
)

func loadTable(config string) (*intents.Table, error) {
	if config == "" {
		return intents.LoadDemo()
	}
	return intents.LoadFile(config)
}

func runRoute(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("route", stderr)
	config := fs.String("config", "", "route with this config file's table, offline (default: the running broker's)")
	brokerURL := fs.String("broker", "", "route with the table of the dev broker serving this URL (default: REACHY_BROKER's, if one runs; else the embedded demo home)")
	stateDir := fs.String("state-dir", "", "route with the table of the broker running on this state directory")
	asJSON := fs.Bool("json", false, "print the decision as JSON")
	room := fs.String("room", "", `the device's room, for "here" (default: the home's device_room)`)
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	sentence := joinWords(pos)
	if sentence == "" {
		return usagef("need a sentence")
	}
	d, err := routeSentence(sentence, *room, *config, *brokerURL, *stateDir, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	explain(stdout, d)
	return nil
}

// routeSentence routes with the table the operator means: a config file's (offline), the
// broker named by --broker or --state-dir (its live table, its own intents included: asked
// over its control socket), or by default the running dev broker's, else the embedded demo
// home's (saying so).
func routeSentence(sentence, room, config, brokerURL, stateDir string, stderr io.Writer) (intents.Decision, error) {
	if config != "" {
		t, err := loadTable(config)
		if err != nil {
			return intents.Decision{}, err
		}
		return t.Route(sentence, intents.Context{DeviceRoom: room}), nil
	}
	named := stateDir != "" || brokerURL != ""
	dir := stateDir
	if dir == "" && brokerURL != "" {
		dir = broker.DevStateDirFor(brokerURL)
	}
	if dir == "" {
		dir = devStateDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := broker.DialControl(ctx, dir)
	if err == nil {
		defer c.Close()
		var d intents.Decision
		err := whileStarting(ctx, func() (err error) { d, err = c.Route(ctx, sentence, room); return err })
		if err == nil {
			fmt.Fprintf(stderr, "(the table of the broker running on %s)\n", dir)
			return d, nil
		}
		if named {
			return intents.Decision{}, fmt.Errorf("route with the broker on %s: %w", dir, err)
		}
	} else if named {
		return intents.Decision{}, fmt.Errorf("no broker is running on %s (%v): start it, or pass its --state-dir (or --config FILE to route offline)", dir, err)
	}
	t, err := loadTable("")
	if err != nil {
		return intents.Decision{}, err
	}
	fmt.Fprintf(stderr, "(no broker running on %s: the embedded demo home's table)\n", dir)
	return t.Route(sentence, intents.Context{DeviceRoom: room}), nil
}

// runReload: reachyctl reload [--state-dir DIR] — the broker running on DIR re-reads its
// intent table (as SIGHUP does), over its control socket: only that broker, never every
// broker on the machine.
func runReload(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reload", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *stateDir == "" {
		return usagef("reload [--state-dir DIR]")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := broker.DialControl(ctx, *stateDir)
	if err != nil {
		return fmt.Errorf("no broker is running on %s (%v): start one, or pass the --state-dir it uses", *stateDir, err)
	}
	defer c.Close()
	var res broker.ReloadResult
	err = whileStarting(ctx, func() (err error) { res, err = c.Reload(ctx); return err })
	if err != nil {
		return fmt.Errorf("reload of the broker on %s: %w (it keeps the table it had; /healthz says why)", *stateDir, err)
	}
	fmt.Fprintf(stdout, "reloaded %s: %d intents\n", res.Source, res.Intents)
	return nil
}

// brokerGuide prints what the running broker's robot says to "what can you do" and "what
// games do you know" for a caller holding scopes, then its table's guide; done is false when
// no broker runs there (and none was named).
func brokerGuide(stateDir, scopes string, stdout, stderr io.Writer) (done bool, err error) {
	dir := stateDir
	if dir == "" {
		dir = devStateDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c, err := broker.DialControl(ctx, dir)
	if err != nil {
		if stateDir != "" {
			return true, fmt.Errorf("no broker is running on %s (%v)", dir, err)
		}
		return false, nil
	}
	defer c.Close()
	var sc []string
	if scopes != "" {
		sc = strings.Split(scopes, ",")
	}
	var g broker.SpokenGuides
	if err := whileStarting(ctx, func() (err error) { g, err = c.Guides(ctx, sc); return err }); err != nil {
		return true, fmt.Errorf("guide of the broker on %s: %w", dir, err)
	}
	fmt.Fprintf(stderr, "(what the robot of the broker running on %s says)\n", dir)
	fmt.Fprintf(stdout, "what can you do: %s\n", g.Help)
	if g.Games != "" {
		fmt.Fprintf(stdout, "what games do you know: %s\n", g.Games)
	}
	return true, nil
}

// whileStarting calls f again (bounded by ctx) while the broker answers that it is still
// starting: its control socket opens before the broker is built.
func whileStarting(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "still starting") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// explain prints a decision for a person: what was heard, which rule, why.
func explain(w io.Writer, d intents.Decision) {
	fmt.Fprintf(w, "heard:     %q", d.Normalized.Text)
	var marks []string
	for _, m := range []struct {
		on   bool
		name string
	}{{d.Normalized.Wake, "wake phrase"}, {d.Normalized.Polite, "polite"}, {d.Normalized.Question, "question"}, {d.Normalized.Negated, "negated"}, {d.Normalized.Deep, "think carefully"}} {
		if m.on {
			marks = append(marks, m.name)
		}
	}
	if len(marks) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(marks, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "intent:    %s (%s", d.Intent, d.Kind)
	if d.Scope != "" {
		fmt.Fprintf(w, ", needs scope %s", d.Scope)
	}
	fmt.Fprintln(w, ")")
	if len(d.Args) > 0 {
		b, _ := json.Marshal(d.Args)
		fmt.Fprintf(w, "arguments: %s\n", b)
	}
	if m := d.Mentions; m != nil {
		var found []string
		add := func(name string, v any) { found = append(found, fmt.Sprintf("%s=%v", name, v)) }
		if m.Device != "" {
			add("device", m.Device)
		}
		if len(m.Rooms) > 0 {
			add("rooms", strings.Join(m.Rooms, ","))
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{m.Here, "here"}, {m.All, "all"}, {m.UnknownRoom, "unknown-place"}, {m.Action, "action-verb"}, {m.Calendar, "calendar-word"}, {m.Alternatives, "or"}} {
			if f.on {
				found = append(found, f.name)
			}
		}
		if len(m.States) > 0 {
			add("states", strings.Join(m.States, ","))
		}
		if m.Temperature != "" {
			add("temperature", m.Temperature)
		}
		if len(m.People) > 0 {
			add("people", strings.Join(m.People, ","))
		}
		if m.Unexplained > 0 {
			add("unexplained-words", m.Unexplained)
		}
		fmt.Fprintf(w, "mentions:  %s\n", strings.Join(found, " "))
		fmt.Fprintf(w, "form:      %s\n", m.Form)
	}
	switch {
	case d.Rule != nil && d.Rule.Index < 0:
		fmt.Fprintf(w, "rule:      %s for %s (%s)\n", d.Rule.Pattern, d.Rule.Intent, d.Rule.Where)
	case d.Rule != nil:
		fmt.Fprintf(w, "rule:      pattern %d of %s (%s): %s\n", d.Rule.Index, d.Rule.Intent, d.Rule.Where, d.Rule.Pattern)
	}
	if d.NotActed != "" {
		fmt.Fprintf(w, "not acted: %s\n", d.NotActed)
	}
	for _, why := range d.Doctrine {
		fmt.Fprintf(w, "why:       %s\n", why)
	}
	if d.Prompt != "" {
		fmt.Fprintf(w, "asks:      %s\n", d.Prompt)
	}
	if d.Pending != nil {
		b, _ := json.Marshal(d.Pending.Args)
		fmt.Fprintf(w, "pending:   %s %s, waiting for %s\n", d.Pending.Intent, b, d.Pending.Missing)
	}
}

func runIntents(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("intents", stderr)
	config := fs.String("config", "", "broker config file (default: the embedded demo home)")
	asJSON := fs.Bool("json", false, "print JSON")
	scopes := fs.String("scopes", "", `guide: for a caller holding these scopes (comma-separated; default every scope)`)
	stateDir := fs.String("state-dir", "", "guide: ask the broker running on this state directory (default: the dev broker at REACHY_BROKER, if one runs)")
	client := addClientFlags(fs)
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("need list, guide, lint, test FILE, or remote")
	}
	spoken := false // the running broker said its guide
	if pos[0] == "guide" && !*asJSON && *config == "" {
		if spoken, err = brokerGuide(*stateDir, *scopes, stdout, stderr); err != nil {
			return err
		}
	}
	if pos[0] == "remote" {
		return remoteIntents(client, stdout)
	}
	t, err := loadTable(*config)
	if err != nil {
		return err
	}
	switch pos[0] {
	case "list":
		if *asJSON {
			return json.NewEncoder(stdout).Encode(t.Intents())
		}
		for _, in := range t.Intents() {
			scope := in.Scope
			if scope == "" {
				scope = "-"
			}
			fmt.Fprintf(stdout, "%-18s %-6s %-14s %s\n", in.Name, in.Kind, scope, in.Description)
		}
	case "guide":
		if *asJSON {
			return json.NewEncoder(stdout).Encode(t.Guide(nil))
		}
		var sc []string
		if *scopes != "" {
			sc = strings.Split(*scopes, ",")
		}
		if !spoken {
			fmt.Fprintln(stderr, "(offline: the table's guide, as a broker with every handler and nobody taking calls says it; a running broker answers for itself)")
			fmt.Fprintf(stdout, "what can you do: %s\n", t.SpokenGuideWith(intents.GuideOptions{Scopes: sc}))
			fmt.Fprintf(stdout, "what games do you know: %s\n", t.GamesGuide(intents.GuideOptions{Scopes: sc}))
		}
		for _, g := range t.Guide(sc) {
			fmt.Fprintf(stdout, "  %-18s %s: %s\n", g.Intent, g.Description, strings.Join(quoteAll(g.Examples), ", "))
		}
	case "lint":
		issues := t.Lint()
		for _, is := range issues {
			where := is.Where
			if where == "" {
				where = is.Intent
			}
			fmt.Fprintf(stdout, "%s: %s: %s\n", where, is.Intent, is.Message)
		}
		if len(issues) > 0 {
			return exitError{1}
		}
		fmt.Fprintf(stdout, "ok: %d intents, every example routes to its own intent, every pattern is used\n", len(t.Intents()))
	case "test":
		if len(pos) != 2 {
			return usagef("intents test FILE")
		}
		return runCases(t, pos[1], stdout)
	default:
		return usagef("unknown subcommand %q", pos[0])
	}
	return nil
}

func runCases(t *intents.Table, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cases, err := intents.ParseCases(f, path)
	if err != nil {
		return err
	}
	r := t.RunCases(cases, intents.Context{})
	for _, fl := range r.Failures {
		mark := "FAIL"
		switch {
		case fl.Unwanted:
			mark = "FAIL (unwanted write)"
		case fl.UnwantedAction:
			mark = "FAIL (unwanted action)"
		}
		fmt.Fprintf(stdout, "%s %s:%d [%s] %q: %s\n", mark, path, fl.Case.Line, fl.Case.Category, fl.Case.Sentence, fl.Why)
	}
	cats := make([]string, 0, len(r.Categories))
	for c := range r.Categories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		cr := r.Categories[c]
		fmt.Fprintf(stdout, "%-16s %4d/%-4d %6.1f%%  unwanted writes %d, actions %d\n", c, cr.Passed, cr.Total, 100*float64(cr.Passed)/float64(cr.Total), cr.UnwantedWrites, cr.UnwantedActions)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed (%.1f%%), %d unwanted writes, %d unwanted actions (writes included)\n", r.Passed, r.Total-r.Passed, 100*r.Accuracy(), r.UnwantedWrites, r.UnwantedActions)
	if r.Passed != r.Total {
		return exitError{1}
	}
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// remoteIntents asks a running broker what this token may call (GET /v1/intents).
func remoteIntents(c clientFlags, stdout io.Writer) error {
	status, b, _, err := c.do(httpClient(10*time.Second), http.MethodGet, "/v1/intents", "", nil, "")
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return refusal(status, b)
	}
	var v struct {
		Device  string
		Scopes  []string
		Intents []struct {
			Name, Kind, Scope string
			Examples          []string
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "device %s, scopes %s\n", v.Device, strings.Join(v.Scopes, ","))
	for _, in := range v.Intents {
		ex := ""
		if len(in.Examples) > 0 {
			ex = fmt.Sprintf("%q", in.Examples[0])
		}
		fmt.Fprintf(stdout, "  %-18s %-6s %-14s %s\n", in.Name, in.Kind, in.Scope, ex)
	}
	return nil
}
