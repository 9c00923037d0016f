// Command reachy-broker is the voice broker between an untrusted Reachy Mini and the family's
// home: speech in, an allowlisted intent, a redacted spoken reply out.
//
// This build has the speech foundation and the intent table; the HTTP service and its
// tailnet listener come with the broker issue. Until then --dev prints the wire contract it
// will serve, routes each line typed on standard input through the demo home's intent table,
// and exits cleanly at end of input.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

var routes = []string{
	"POST /v1/turns            device (scope turn): audio/wav in, reply + motion policy out",
	"POST /v1/intents/{name}   device (scope intent): typed call",
	"POST /v1/utterances       operator (scope text): {\"text\": ...} routed like a transcript",
	"GET  /v1/intents          any authenticated caller: this caller's allowlist",
	"GET  /healthz, /metrics   admin listener, loopback only",
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reachy-broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dev := fs.Bool("dev", false, "loopback development mode with the embedded demo home")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !*dev {
		fmt.Fprintln(stderr, "reachy-broker: the tailnet service is not built yet; run with --dev")
		return 2
	}
	fmt.Fprintln(stderr, "DEV MODE: loopback only, not on a tailnet. Demo home.")
	fmt.Fprintln(stdout, "Routes this broker serves (wire contract v1):")
	for _, r := range routes {
		fmt.Fprintln(stdout, "  "+r)
	}
	return devREPL(stdin, stdout, stderr)
}

// devREPL routes typed sentences until end of input (an empty stdin ends at once).
func devREPL(stdin io.Reader, stdout, stderr io.Writer) int {
	router, err := demoRouter()
	if err != nil {
		fmt.Fprintf(stderr, "reachy-broker: %v\n", err)
		return 1
	}
	if router == nil {
		return 0
	}
	fmt.Fprintln(stdout, `Type a sentence (e.g. "hey reachy turn on the kitchen light") to see how it routes; end with Ctrl-D.`)
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		fmt.Fprintln(stdout, router(sc.Text()))
	}
	return 0
}
