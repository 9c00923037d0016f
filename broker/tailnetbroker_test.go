package broker

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// tailnetBroker is a broker serving the API on its own in-process tailnet node, the way the
// reachy-broker service runs in production.
type tailnetBroker struct {
	b     *Broker
	state *store.Store
	tn    *Tailnet
	ip    netip.Addr // the broker node's tailnet IPv4 address
}

// startTailnetBroker brings up a broker node on the control server at controlURL with the
// dev config (loopback listener off). tune may adjust the config and the dependencies before
// the broker is built. Everything is closed when the test ends.
func startTailnetBroker(t *testing.T, ctx context.Context, controlURL string, tune func(*Config, *Deps)) *tailnetBroker {
	t.Helper()
	dir := t.TempDir()
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Listen.Loopback = ""
	state, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { state.Close() })
	tn, err := StartTailnet(ctx, TailnetConfig{Hostname: "broker", StateDir: filepath.Join(dir, "tailnet"), Ephemeral: true, ControlURL: controlURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tn.Close() })
	d := Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Identifier: tn, People: tn,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if tune != nil {
		tune(cfg, &d)
	}
	b, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	l, err := tn.Listen(TailnetPort)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(b.Handler(), cfg.Turn.Budget)
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	ip, _ := tn.IPs()
	return &tailnetBroker{b: b, state: state, tn: tn, ip: ip}
}
