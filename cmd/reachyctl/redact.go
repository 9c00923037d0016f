package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/redact"
)

// stdin is where reachyctl redact reads; tests replace it.
var stdin io.Reader = os.Stdin

func runRedact(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("redact", stderr)
	config := fs.String("config", "", "broker config file (for redact.terms and redact.max_chars)")
	kinds := fs.Bool("kinds", false, "also print the kinds of redaction applied, on stderr")
	if _, err := cliflags.ParseInterspersed(fs, args); err != nil {
		return err
	}
	rc := redact.Config{}
	if *config != "" {
		cfg, _, err := broker.LoadConfig(*config)
		if err != nil {
			return err
		}
		if rc.Terms, err = cfg.RedactTerms(); err != nil {
			return err
		}
		rc.MaxChars = cfg.Redact.MaxChars
	}
	r, err := redact.New(rc)
	if err != nil {
		return err
	}
	in, err := io.ReadAll(io.LimitReader(stdin, 1<<20))
	if err != nil {
		return err
	}
	res, err := r.Redact(string(in))
	if err != nil {
		fmt.Fprintln(stdout, redact.Apology)
		return exitError{1}
	}
	fmt.Fprintln(stdout, res.Text)
	if *kinds {
		fmt.Fprintln(stderr, strings.Join(res.Kinds, ","))
	}
	return nil
}
