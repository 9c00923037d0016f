package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// devBroker is a dev broker for a test: the dev config and demo home with its state in dir,
// served on a loopback port of its own. Everything is closed when the test ends.
type devBroker struct {
	cfg   *broker.Config
	table *intents.Table
	state *store.Store
	srv   *httptest.Server
}

// startDevBroker builds it with the basic handlers; edit, when set, may change the
// dependencies (handlers, announcer, limits through d.Config) before the broker is built.
func startDevBroker(tb testing.TB, dir string, edit func(db *devBroker, d *broker.Deps)) *devBroker {
	tb.Helper()
	cfg, table, err := broker.DevConfig("127.0.0.1:0", dir)
	if err != nil {
		tb.Fatal(err)
	}
	state, err := store.Init(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { state.Close() })
	// reachyctl's token and audit commands reach a running broker's state through its socket.
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		broker.ServeControl(ctx, state, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	tb.Cleanup(func() { cancel(); <-served })
	db := &devBroker{cfg: cfg, table: table, state: state}
	d := broker.Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if edit != nil {
		edit(db, &d)
	}
	b, err := broker.New(d)
	if err != nil {
		tb.Fatal(err)
	}
	db.srv = httptest.NewServer(b.Handler())
	tb.Cleanup(db.srv.Close)
	return db
}
