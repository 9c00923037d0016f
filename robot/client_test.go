package robot

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRedirectToAnotherOriginIsNotFollowed(t *testing.T) {
	var hit bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit = true }))
	defer other.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/turns", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	c := &BrokerClient{URL: redirector.URL, Token: "rbk_secret", Deadline: 2 * time.Second}
	_, _, err := c.Turn(context.Background(), []byte("RIFF"), "k")
	if err == nil || hit {
		t.Fatalf("err %v, other origin hit: %v", err, hit)
	}
}

// TestRetryCarriesTheSameKey: the first answer is lost on the way back; the retry carries the
// same Idempotency-Key so the broker can replay instead of acting again.
func TestRetryCarriesTheSameKey(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		n := len(keys)
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer rbk_secret" {
			http.Error(w, "no", 401)
			return
		}
		if n == 1 { // drop the connection after the request was received
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		w.Write([]byte(`{"turn_id":"t1","intent":"time.now","outcome":"ok","reply":"It's noon."}`))
	}))
	defer srv.Close()
	c := &BrokerClient{URL: srv.URL, Token: "rbk_secret", Deadline: 3 * time.Second, Backoff: 10 * time.Millisecond}
	r, _, err := c.Turn(context.Background(), []byte("RIFF"), "utt-1")
	if err != nil || r.TurnID != "t1" {
		t.Fatalf("%+v %v", r, err)
	}
	if len(keys) != 2 || keys[0] != "utt-1" || keys[1] != "utt-1" {
		t.Fatalf("keys %v", keys)
	}
}

func TestUnreachableBrokerIsReportedWithinTheDeadline(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	c := &BrokerClient{URL: "http://" + addr, Token: "x", Deadline: 500 * time.Millisecond, Backoff: 20 * time.Millisecond}
	start := time.Now()
	_, _, err := c.Turn(context.Background(), []byte("RIFF"), "k")
	if err == nil || !strings.Contains(err.Error(), ErrUnreachable.Error()) || time.Since(start) > 2*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

func TestTokenFileMustBePrivate(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "open")
	os.WriteFile(open, []byte("rbk_x\n"), 0o644)
	if _, err := ReadToken(open); err == nil || !strings.Contains(err.Error(), "0600") {
		t.Fatalf("0644 token file: %v", err)
	}
	private := filepath.Join(dir, "private")
	os.WriteFile(private, []byte("rbk_x\n"), 0o600)
	if tok, err := ReadToken(private); err != nil || tok != "rbk_x" {
		t.Fatalf("%q %v", tok, err)
	}
}
