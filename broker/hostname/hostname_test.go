package hostname

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseCanonicalizes(t *testing.T) {
	for in, want := range map[string]string{
		"Broker.Tail-Scale.TS.net.:8092": "broker.tail-scale.ts.net:8092",
		"broker.tail-scale.ts.net":       "broker.tail-scale.ts.net",
		"[FD7A:115C:A1E0::1]:8092":       "[fd7a:115c:a1e0::1]:8092",
		"[fd7a:115c:a1e0::1]":            "[fd7a:115c:a1e0::1]",
		"100.64.0.1:8092":                "100.64.0.1:8092",
		"[::ffff:100.64.0.1]:80":         "100.64.0.1:80",
		"LOCALHOST.:9092":                "localhost:9092",
	} {
		h, err := Parse(in)
		if err != nil || h.String() != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, h.String(), err, want)
		}
	}
	for _, in := range []string{"", ":8092", "broker:0", "broker:65536", "broker:08092", "broker:+80", "broker:x",
		"fd7a::1", "[fd7a::1", "[fd7a::1]x", "[100.64.0.1]", "[fe80::1%eth0]", "evil.example/", "evil example",
		"a..b", ".", "..", "broker\x00.ts.net", "[evil.example]:80"} {
		if h, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, h)
		}
	}
}

func TestFixedSetAnswersOnlyItsNames(t *testing.T) {
	s, err := Fixed("broker.tail-scale.ts.net.", "broker", "100.64.0.1", "fd7a:115c:a1e0::1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, ok := range []string{"broker.tail-scale.ts.net", "BROKER.tail-scale.ts.net.:8092", "broker:8092", "100.64.0.1:8092",
		"[fd7a:115c:a1e0::1]:8092", "[FD7A:115C:A1E0:0::1]"} {
		if _, m := s.Match(ctx, ok); !m {
			t.Errorf("%q refused", ok)
		}
	}
	for _, foreign := range []string{"evil.example", "evil.example:8092", "broker.tail-scale.ts.net.evil.example",
		"localhost:8092", "127.0.0.1:8092", "[::1]:8092", "100.64.0.2", "", "broker.tail-scale.ts.net:0"} {
		if _, m := s.Match(ctx, foreign); m {
			t.Errorf("%q accepted", foreign)
		}
	}
}

func TestLoopbackSet(t *testing.T) {
	s := Loopback()
	ctx := context.Background()
	for _, ok := range []string{"localhost", "LocalHost.:8092", "127.0.0.1:8092", "127.0.0.2", "[::1]:8092"} {
		if _, m := s.Match(ctx, ok); !m {
			t.Errorf("%q refused", ok)
		}
	}
	for _, foreign := range []string{"evil.example:8092", "localhost.evil.example", "10.0.0.1", "[fd7a::1]", "0.0.0.0"} {
		if _, m := s.Match(ctx, foreign); m {
			t.Errorf("%q accepted", foreign)
		}
	}
}

// TestLiveSetFollowsARename: a node renamed on the tailnet is answered under its new name
// without a restart, and a flood of foreign names costs at most one lookup per interval.
func TestLiveSetFollowsARename(t *testing.T) {
	var name atomic.Value
	name.Store("broker.tail-scale.ts.net.")
	var lookups atomic.Int32
	s := Live(func(context.Context) ([]string, error) {
		lookups.Add(1)
		return []string{name.Load().(string), "100.64.0.1"}, nil
	}, 200*time.Millisecond)
	ctx := context.Background()
	if _, ok := s.Match(ctx, "broker.tail-scale.ts.net:8092"); !ok {
		t.Fatal("the node's name is refused")
	}
	for range 1000 {
		if _, ok := s.Match(ctx, "evil.example"); ok {
			t.Fatal("a foreign name is accepted")
		}
	}
	if n := lookups.Load(); n > 2 {
		t.Fatalf("%d lookups for one burst of foreign names", n)
	}
	name.Store("kitchen-broker.tail-scale.ts.net.")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := s.Match(ctx, "kitchen-broker.tail-scale.ts.net"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new name is never answered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, ok := s.Match(ctx, "broker.tail-scale.ts.net"); ok {
		t.Fatal("the old name is still answered after the rename")
	}
}

// TestLiveSetKeepsItsNamesWhenALookupFails: a failing lookup keeps the names it had.
func TestLiveSetKeepsItsNamesWhenALookupFails(t *testing.T) {
	var fail atomic.Bool
	s := Live(func(context.Context) ([]string, error) {
		if fail.Load() {
			return nil, errors.New("local API not answering")
		}
		return []string{"broker.tail-scale.ts.net"}, nil
	}, time.Millisecond)
	ctx := context.Background()
	if _, ok := s.Match(ctx, "broker.tail-scale.ts.net"); !ok {
		t.Fatal("refused")
	}
	fail.Store(true)
	time.Sleep(5 * time.Millisecond)
	s.Match(ctx, "evil.example") // triggers a failing lookup
	if _, ok := s.Match(ctx, "broker.tail-scale.ts.net"); !ok {
		t.Fatal("a failed lookup dropped the broker's own name")
	}
}

func TestAddRefusesANameWithAPort(t *testing.T) {
	if _, err := Fixed("broker.example:443"); err == nil {
		t.Fatal("a name with a port was added")
	}
}
