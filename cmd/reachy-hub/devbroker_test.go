package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// newDevBroker builds a dev broker (the demo home, the basic handlers) with its state in
// dir/state, closed when the test ends. The test serves its handler as it needs.
func newDevBroker(t *testing.T, dir string) (*broker.Broker, *store.Store) {
	t.Helper()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	state, err := store.Init(cfg.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { state.Close() })
	b, err := broker.New(broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return b, state
}
