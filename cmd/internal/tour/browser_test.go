package tour

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// wantWAV fails unless path is a WAV file with sound in it.
func wantWAV(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := speech.DecodeWAV(b, 10*time.Minute); err != nil || c.Duration() <= 0 {
		t.Fatalf("%s is not a WAV with sound: %v", path, err)
	}
}

// kinds lists the sounds in dir/sounds.json as kind/from, checking each numbered WAV.
func kinds(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "sounds.json"))
	if err != nil {
		return ""
	}
	var index []struct {
		N                int
		File, Kind, From string
	}
	if err := json.Unmarshal(b, &index); err != nil {
		t.Fatalf("sounds.json: %v", err)
	}
	var out []string
	for _, s := range index {
		wantWAV(t, filepath.Join(dir, s.File))
		out = append(out, s.Kind+"/"+s.From)
	}
	return strings.Join(out, " ")
}

// notTimer leaves out of a kinds list the sounds of step 3's pasta timer, which may still
// ring in step 7 (a quick reader links a robot within the minute it waits for one): they
// are not what step 7 checks.
func notTimer(kinds string) string {
	var own []string
	for _, k := range strings.Fields(kinds) {
		if !strings.HasPrefix(k, "timer_") {
			own = append(own, k)
		}
	}
	return strings.Join(own, " ")
}

// eventually waits (bounded) for cond.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// teleportInTheBrowser does what step 7 asks of a person in the console: Join, type a
// sentence and Speak, hold to talk, press an expression, speak in the room, Leave — over
// the page's own HTTP calls — and checks what the sim robot played and wrote to --out, and
// what reachyctl status says meanwhile.
func teleportInTheBrowser(t *testing.T, te *tourEnv, sh *shell, hub step) {
	t.Helper()
	base := "http://" + te.ports["127.0.0.1:8092"]
	hc := &http.Client{Timeout: 60 * time.Second}
	resp, err := hc.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="console-token" content="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no page token on the console page: %s", page)
	}
	act := func(action, ctype string, body []byte) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/console/api/robots/reachy/"+action, bytes.NewReader(body))
		req.Header.Set("Origin", base)
		req.Header.Set("X-Console-Token", string(m[1]))
		req.Header.Set("Content-Type", ctype)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", action, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", action, resp.StatusCode, b)
		}
	}
	sim := te.tmp("sim")
	// The sim heard /tmp/mic/1.wav once linked: without a model, the clip's own words are
	// its transcript (dev mode), so it is answered.
	eventually(t, 30*time.Second, "the reply to the first utterance", func() bool { return strings.HasPrefix(notTimer(kinds(t, sim)), "reply/turn") })
	act("join", "application/json", nil)
	act("say", "application/json", []byte(`{"text": "Hello from the hotel"}`))
	talk, err := speech.Espeak{}.Synthesize(context.Background(), "hi kids")
	if err != nil {
		t.Fatal(err)
	}
	act("talk", "audio/wav", talk)
	act("expression", "application/json", []byte(`{"expression": "happy"}`))

	// reachyctl status names who is connected, since when.
	s := sh.run("./bin/reachyctl status --json", time.Minute)
	var st struct {
		Sessions []struct {
			Robot, Owner string
			Live         bool
		} `json:"teleport_sessions"`
	}
	if err := json.Unmarshal([]byte(s.out), &st); err != nil || len(st.Sessions) != 1 || st.Sessions[0].Owner != "dad@example.com" || !st.Sessions[0].Live {
		t.Fatalf("status during the session: %v %s", err, s.out)
	}
	// A WAV dropped into the microphone folder mid-session is heard as it appears.
	wav, err := speech.Espeak{}.Synthesize(context.Background(), "we miss you")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(te.tmp("mic/.2.tmp"), wav, 0o644)
	os.Rename(te.tmp("mic/.2.tmp"), te.tmp("mic/2.wav"))
	eventually(t, 30*time.Second, "the hub to hear mic/2.wav", func() bool {
		b, _ := os.ReadFile(hub.errFile)
		return strings.Contains(string(b), "hearing a file") && strings.Contains(string(b), "mic/2.wav")
	})
	// Leave only once the owner has it: an utterance the hub is still cutting when the
	// session ends is the room's own turn (here a fallback: no model).
	eventually(t, 30*time.Second, "the hub to pass mic/2.wav to the owner", func() bool {
		b, _ := os.ReadFile(hub.errFile)
		return strings.Contains(string(b), "teleport: utterance passed to the owner")
	})
	act("leave", "application/json", nil)
	want := "reply/turn join_announcement/link teleport_say/link teleport_talk/link announcement/link"
	got := ""
	eventually(t, 30*time.Second, "sounds.json: "+want, func() bool {
		if got = notTimer(kinds(t, sim)); got != want {
			t.Logf("sounds.json so far: %s", got)
			return false
		}
		return true
	})
	if b, _ := os.ReadFile(filepath.Join(sim, "daemon-calls.json")); !strings.Contains(string(b), "happy") {
		t.Fatalf("the expression is not in daemon-calls.json")
	}
}
