package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/robot"
)

// runFakeDaemon serves the in-process fake of the Reachy Mini daemon on loopback and prints
// every call it receives, so a newcomer can watch a hub session without a robot.
func runFakeDaemon(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fake-daemon", stderr)
	listen := fs.String("listen", "127.0.0.1:8000", "loopback address")
	if _, err := cliflags.ParseInterspersed(fs, args); err != nil {
		return err
	}
	l, err := broker.ListenLoopback(*listen)
	if err != nil {
		return err
	}
	fake := robot.NewFakeDaemon()
	logged := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(stdout, "%s %s %s\n", time.Now().Format("15:04:05.000"), r.Method, r.URL.Path)
		fake.ServeHTTP(w, r)
	})
	fmt.Fprintf(stderr, "fake Reachy Mini daemon on http://%s (Ctrl-C to stop)\n", l.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return broker.Serve(ctx, &http.Server{Handler: logged, ReadHeaderTimeout: 5 * time.Second}, l, time.Second)
}
