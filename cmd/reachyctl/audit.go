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
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

func runAudit(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("audit", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	n := fs.Int("n", 20, "how many records")
	asJSON := fs.Bool("json", false, "print JSON lines")
	verbose := fs.Bool("v", false, "every field in full (route, arguments, redactions), however wide")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "tail" || *stateDir == "" {
		return usagef("audit tail --state-dir DIR [--json] [-v] [-n N]")
	}
	st, err := openStore(context.Background(), *stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	recs, err := st.TailAudit(context.Background(), *n)
	if err != nil {
		return err
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
		fmt.Fprintf(stderr, "no audit records yet in %s\n", *stateDir)
	}
	return nil
}

const auditRowFull = "%-8s %-12s %-9s %-20s %-8s %7s %-14s %s %s\n"

// printAuditTable prints one line per record, each at most width columns: the device and
// intent are cut to their column, and the last column — the closed code, then the
// arguments — to what is left of the line ("…" marks a cut; -v prints everything).
func printAuditTable(w io.Writer, recs []broker.AuditRecord, width int) {
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
