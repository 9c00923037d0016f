package calendar

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/redact"
)

// startRadicale runs a real Radicale CalDAV server on a loopback port (installed by the
// README's test command) and returns its URL.
func startRadicale(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("radicale")
	if err != nil {
		t.Fatalf("radicale is not installed (make test installs it): %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	cmd := exec.Command(bin, "--server-hosts", addr, "--storage-filesystem-folder", filepath.Join(dir, "collections"),
		"--auth-type", "none", "--rights-type", "owner_only", "--logging-level", "warning")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(15 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("radicale did not start on %s", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "http://" + addr
}

func davRequest(t *testing.T, method, url, body string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.SetBasicAuth("family", "x")
	if body != "" {
		req.Header.Set("Content-Type", "text/calendar; charset=utf-8")
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %s", method, url, resp.Status)
	}
}

func TestCalDAVAgainstRadicale(t *testing.T) {
	base := startRadicale(t)
	davRequest(t, "MKCALENDAR", base+"/family/dad/", "")
	// Radicale stores one event per object: split the test calendar into its events.
	parts := strings.Split(sensitiveICS, "BEGIN:VEVENT")
	for i, p := range parts[1:] {
		ev := "BEGIN:VEVENT\n" + strings.TrimSuffix(strings.TrimSpace(p), "END:VCALENDAR")
		obj := "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + strings.TrimSpace(ev) + "\nEND:VCALENDAR\n"
		davRequest(t, "PUT", fmt.Sprintf("%s/family/dad/e%d.ics", base, i), strings.ReplaceAll(obj, "\n", "\r\n"))
	}
	london, _ := time.LoadLocation("Europe/London")
	src := CalDAV{Endpoint: base + "/", Calendar: "/family/dad/", Username: "family", Password: "x", Loc: london, Vocab: redact.Whereabouts}
	at := time.Date(2026, 11, 30, 9, 30, 0, 0, london)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	occ, err := src.Occurrences(ctx, at.Add(-24*time.Hour), at.Add(7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	st := Status("dad", occ, at)
	if !st.Busy || !st.Until.Equal(time.Date(2026, 11, 30, 12, 0, 0, 0, london)) || st.Whereabouts != "work" {
		t.Fatalf("%+v (from %d occurrences)", st, len(occ))
	}
	at = time.Date(2026, 11, 30, 14, 10, 0, 0, london)
	occ, err = src.Occurrences(ctx, at.Add(-24*time.Hour), at.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if st := Status("dad", occ, at); !st.Busy {
		t.Fatalf("recurring event over CalDAV: %+v", st)
	}
	// A wrong password on a server that checks it, or a dead server, is an error, not "free".
	dead := CalDAV{Endpoint: "http://127.0.0.1:1/", Calendar: "/x/", Loc: london}
	if _, err := dead.Occurrences(ctx, at, at.Add(time.Hour)); err == nil {
		t.Fatal("dead server answered")
	}
}
