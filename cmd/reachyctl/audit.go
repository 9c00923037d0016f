package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

func runAudit(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("audit", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	n := fs.Int("n", 20, "how many records")
	asJSON := fs.Bool("json", false, "print JSON lines")
	verbose := fs.Bool("v", false, "every field in full (route, arguments, redactions), however wide")
	intent := fs.String("intent", "", "only this intent; a name ending in . or * is a prefix (teleport.*)")
	device := fs.String("device", "", "only this device")
	since := fs.String("since", "", "only records since then: a duration ago (10m, 2h), a time today (15:04) or RFC 3339")
	outcome := fs.String("outcome", "", "only these outcomes (comma-separated: ok,denied,invalid,failed,unknown,timeout,replayed,ignored,pending,missed)")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "tail" || *stateDir == "" {
		return usagef("audit tail --state-dir DIR [--json] [-v] [-n N] [--intent I] [--device D] [--since S] [--outcome O]")
	}
	f, err := newAuditFilter(*intent, *device, *since, *outcome, time.Now())
	if err != nil {
		return usagef("%v", err)
	}
	st, err := openStore(context.Background(), *stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	window := *n
	if f.any() {
		window = auditFilterWindow // filtered from the newest records, newest n kept
	}
	recs, err := st.TailAudit(context.Background(), window)
	if err != nil {
		return err
	}
	if f.any() {
		recs = f.keep(recs, *n)
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(stdout)
		for _, r := range recs {
			enc.Encode(r)
		}
	case *verbose:
		fmt.Fprintf(stdout, auditRowFull, "TIME", "DEVICE", "ROUTE", "INTENT", "OUTCOME", "LATENCY", "CODE", "ARGS", "REDACTIONS")
		for _, r := range recs {
			fmt.Fprintf(stdout, auditRowFull, r.Time.Local().Format("15:04:05"), r.Device, r.Route, r.Intent, r.Outcome,
				fmt.Sprintf("%dms", r.LatencyMS), orDash(r.Code), orDash(auditArgs(r.Args)), orDash(strings.Join(r.Redactions, ",")))
		}
	default:
		printAuditTable(stdout, recs, termWidth(stdout))
	}
	if len(recs) == 0 && !*asJSON {
		if f.any() {
			fmt.Fprintf(stderr, "no audit records in %s match (of the newest %d)\n", *stateDir, auditFilterWindow)
		} else {
			fmt.Fprintf(stderr, "no audit records yet in %s\n", *stateDir)
		}
	}
	return nil
}

// auditFilterWindow is how many of the newest records a filtered tail looks through.
const auditFilterWindow = 20000

// auditFilter selects audit records by intent, device, time and outcome.
type auditFilter struct {
	intent, device string
	prefix         bool
	since          time.Time
	outcomes       []string
}

var auditOutcomes = []string{"ok", "denied", "invalid", "failed", "unknown", "timeout", "replayed", "ignored", "pending", "missed", "partial"}

func newAuditFilter(intent, device, since, outcome string, now time.Time) (auditFilter, error) {
	f := auditFilter{intent: intent, device: device}
	if strings.HasSuffix(f.intent, "*") || strings.HasSuffix(f.intent, ".") {
		f.intent, f.prefix = strings.TrimSuffix(f.intent, "*"), true
	}
	if since != "" {
		t, err := parseSince(since, now)
		if err != nil {
			return f, err
		}
		f.since = t
	}
	for _, o := range strings.Split(outcome, ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		if !slices.Contains(auditOutcomes, o) {
			return f, fmt.Errorf("--outcome %q: one of %s", o, strings.Join(auditOutcomes, ", "))
		}
		f.outcomes = append(f.outcomes, o)
	}
	return f, nil
}

// parseSince reads --since: a duration ago, a clock time today (local), or RFC 3339.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"15:04", "15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, now.Location()); err == nil {
			y, m, d := now.Date()
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, now.Location()), nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: a duration ago (10m, 2h), a time today (15:04) or RFC 3339 (2026-01-02T15:04:05Z)", s)
}

func (f auditFilter) any() bool {
	return f.intent != "" || f.device != "" || !f.since.IsZero() || len(f.outcomes) > 0
}

func (f auditFilter) match(r store.AuditRecord) bool {
	switch {
	case f.intent != "" && f.prefix && !strings.HasPrefix(r.Intent, f.intent):
		return false
	case f.intent != "" && !f.prefix && r.Intent != f.intent:
		return false
	case f.device != "" && r.Device != f.device:
		return false
	case !f.since.IsZero() && r.Time.Before(f.since):
		return false
	case len(f.outcomes) > 0 && !slices.Contains(f.outcomes, r.Outcome):
		return false
	}
	return true
}

// keep returns the newest n records that match, oldest first.
func (f auditFilter) keep(recs []store.AuditRecord, n int) []store.AuditRecord {
	var out []store.AuditRecord
	for _, r := range recs {
		if f.match(r) {
			out = append(out, r)
		}
	}
	if n >= 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

const auditRowFull = "%-8s %-12s %-9s %-20s %-8s %7s %-14s %s %s\n"

// printAuditTable prints one line per record, each at most width columns: the device and
// intent are cut to their column, and the last column — the closed code, then the
// arguments — to what is left of the line ("…" marks a cut; -v prints everything).
func printAuditTable(w io.Writer, recs []store.AuditRecord, width int) {
	const head = "%-8s %-10s %-20s %-8s %6s "
	fixed := len(fmt.Sprintf(head, "", "", "", "", ""))
	fmt.Fprintf(w, head+"%s\n", "TIME", "DEVICE", "INTENT", "OUTCOME", "MS", "DETAIL")
	for _, r := range recs {
		var detail []string
		if r.Code != "" {
			detail = append(detail, r.Code)
		}
		if a := auditArgs(r.Args); a != "" {
			detail = append(detail, a)
		}
		if len(r.Redactions) > 0 {
			detail = append(detail, "redacted="+strings.Join(r.Redactions, ","))
		}
		line := fmt.Sprintf(head, r.Time.Local().Format("15:04:05"), cut(r.Device, 10), cut(r.Intent, 20), cut(r.Outcome, 8),
			cut(strconv.FormatInt(r.LatencyMS, 10), 6))
		fmt.Fprintln(w, strings.TrimRight(line+cut(orDash(strings.Join(detail, " ")), max(width-fixed, 1)), " "))
	}
}

// auditArgs is a record's arguments as k=v, sorted by name.
func auditArgs(args map[string]string) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+args[k])
	}
	return strings.Join(parts, " ")
}

// cut shortens s to n characters, ending a cut one with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + "…"
}

// termWidth is the width of the terminal w writes to; $COLUMNS, or 80, when it is not one.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols >= 40 {
			return cols
		}
	}
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && cols >= 40 {
		return cols
	}
	return 80
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
