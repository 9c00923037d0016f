package tour

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tourEnv is where a tour runs: /tmp of the README is root/tmp, the dev broker's state dir
// is under root/state, no whisper model is found (root/cache), and the README's fixed ports
// are ports free now.
type tourEnv struct {
	root, work string
	ports      map[string]string // README address -> the test's
	env        []string
}

func newTourEnv(t *testing.T) *tourEnv {
	t.Helper()
	root := t.TempDir()
	te := &tourEnv{root: root, work: filepath.Join(root, "work"), ports: map[string]string{}}
	for _, d := range []string{te.work, filepath.Join(root, "tmp"), filepath.Join(root, "state"), filepath.Join(root, "cache")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// ./bin and intents/testdata as the README's lines name them, from the clone's root.
	if err := os.Symlink(binDir, filepath.Join(te.work, "bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repoRoot(), "intents"), filepath.Join(te.work, "intents")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"8092", "9092", "8093", "9093"} {
		te.ports["127.0.0.1:"+p] = fmt.Sprintf("127.0.0.1:%d", freePort(t))
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "REACHY_") || k == "XDG_STATE_HOME" {
			continue
		}
		te.env = append(te.env, kv)
	}
	te.env = append(te.env, "XDG_STATE_HOME="+filepath.Join(root, "state"), "REACHY_CACHE_DIR="+filepath.Join(root, "cache"),
		"REACHY_BROKER=http://"+te.ports["127.0.0.1:8092"]) // reachyctl's default, on the test's port
	return te
}

// tmp is the README's /tmp/NAME in this tour.
func (te *tourEnv) tmp(name string) string { return filepath.Join(te.root, "tmp", name) }

// rewrite is the README line as this test runs it: the same command on the test's ports and
// directory. `make run` is the README's own alternative (./bin/reachy-broker --dev &), and
// `make build` is done (TestMain built ./bin).
func (te *tourEnv) rewrite(line string) string {
	switch strings.TrimSpace(stripComment(line)) {
	case "make run":
		line = "./bin/reachy-broker --dev &"
	case "make build":
		return "true"
	}
	pairs := []string{"/tmp/", filepath.Join(te.root, "tmp") + "/"}
	for from, to := range te.ports {
		pairs = append(pairs, from, to)
	}
	line = strings.NewReplacer(pairs...).Replace(line)
	if strings.Contains(line, "./bin/reachy-broker --dev") && !strings.Contains(line, "--listen") {
		line = strings.Replace(line, "./bin/reachy-broker --dev", "./bin/reachy-broker --dev --listen "+te.ports["127.0.0.1:8092"]+" --admin "+te.ports["127.0.0.1:9092"], 1)
	}
	if strings.HasPrefix(line, "kill %") {
		// SIGTERM, and the jobs it names have ended before the next line (the others run on).
		jobs := strings.Fields(strings.TrimPrefix(strings.TrimSpace(stripComment(line)), "kill"))
		line = stripComment(line) + "; wait " + strings.Join(jobs, " ")
	}
	return line
}

// expect is what one README line (found by a piece of it) must do.
type expect struct {
	match  string   // a piece of the README line
	rc     int      // its exit code
	want   []string // in what it printed (stdout and stderr)
	absent []string // not in what it printed
	before string   // a line a person runs first (a Ctrl-C, as the README's words say)
	after  func(t *testing.T, te *tourEnv, sh *shell, s step)
}

// runTour runs the block under heading line by line, checking each line the expectations
// name (every line must exit 0 unless its expectation says otherwise), and that every
// expectation met its line.
func runTour(t *testing.T, te *tourEnv, heading string, exps []expect) {
	t.Helper()
	sh := newShell(t, te.work, te.env)
	used := make([]bool, len(exps))
	for _, line := range readmeBlock(t, heading) {
		var e *expect
		for i := range exps {
			if !used[i] && strings.Contains(line, exps[i].match) {
				e, used[i] = &exps[i], true
				break
			}
		}
		if e != nil && e.before != "" {
			if s := sh.run(e.before, time.Minute); s.rc != 0 {
				t.Fatalf("%q: exit %d\n%s%s", e.before, s.rc, s.out, s.stderr)
			}
		}
		s := sh.run(te.rewrite(line), 3*time.Minute)
		all := s.out + s.stderr
		t.Logf("$ %s\n%s", line, indent(all))
		wantRC := 0
		if e != nil {
			wantRC = e.rc
		}
		if s.rc != wantRC {
			t.Fatalf("%q: exit %d, want %d\n%s", line, s.rc, wantRC, all)
		}
		if e == nil {
			continue
		}
		for _, w := range e.want {
			if !strings.Contains(all, w) {
				t.Fatalf("%q printed no %q:\n%s", line, w, all)
			}
		}
		for _, a := range e.absent {
			if strings.Contains(all, a) {
				t.Fatalf("%q printed %q:\n%s", line, a, all)
			}
		}
		if e.after != nil {
			e.after(t, te, sh, s)
		}
	}
	for i, u := range used {
		if !u {
			t.Fatalf("no README line under %q matches %q", heading, exps[i].match)
		}
	}
}

func indent(s string) string {
	if len(s) > 4000 {
		s = s[:4000] + "\n…"
	}
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// TestReadmeTour runs the README's five-minute tour line by line: text turns, the audit,
// a backup, status, routing, speech, and step 7's teleport session against the sim robot,
// with the browser's clicks made over HTTP, checking what each line prints and the sounds
// the sim writes to --out.
func TestReadmeTour(t *testing.T) {
	te := newTourEnv(t)
	var hub step
	runTour(t, te, "## A five-minute tour", []expect{
		{match: `say "turn on the kitchen light"`, want: []string{"house.light.set", "Okay, the kitchen light is on."}},
		{match: `say "don't turn off the kitchen light"`, absent: []string{"house.light.set"}},
		{match: `say "turn on the light"`, want: []string{"Which room?"}},
		{match: `say "the bedroom"`, want: []string{"house.light.set", "bedroom"}},
		{match: `say "what time is it" -o /tmp/reply.wav`, want: []string{"time.now", "reply audio saved to"},
			after: func(t *testing.T, te *tourEnv, _ *shell, _ step) { wantWAV(t, te.tmp("reply.wav")) }},
		{match: `say "set a pasta timer for 3 seconds"`, want: []string{"timer.start", "Pasta timer set for three seconds. But no robot is linked in the living room to ring it."}},
		{match: `say "how long is left on the pasta timer"`, want: []string{"timer.status", "pasta timer"}},
		{match: "audit tail", want: []string{"house.light.set", "timer.start"}},
		{match: "state backup", want: []string{"a consistent copy"}},
		{match: "reachyctl status ", want: []string{"ROBOTS", "none configured, none linked", "TIMERS", "pasta", "nobody: no robot configured or linked in its room",
			"speech-to-text: not configured", "agent: not configured"}},
		{match: `route "hey jeeves`, want: []string{"house.light.set"}},
		{match: "route --json", want: []string{`"intent": "house.ac.set"`, `"temperature": "22"`}},
		{match: "intents list", want: []string{"timer.start"}},
		{match: "intents guide", want: []string{"turn on the kitchen light"}},
		{match: "intents test", want: []string{" 0 failed"}},
		{match: "bench --concurrency", want: []string{"0 errors"}},
		{match: `speak "The kitchen light is on."`, after: func(t *testing.T, te *tourEnv, _ *shell, _ step) { wantWAV(t, te.tmp("reply.wav")) }},
		{match: "gen-test-model", want: []string{"random weights"}},
		{match: "transcribe --model", want: []string{`"test_model": true`}},
		// Step 7: "Stop the make run broker first (Ctrl-C)".
		{match: "--dev-owner dad@example.com", before: "kill %1; wait"},
		{match: `-o /tmp/mic/1.wav`, after: func(t *testing.T, te *tourEnv, _ *shell, _ step) { wantWAV(t, te.tmp("mic/1.wav")) }},
		{match: "reachy-hub --sim --link", after: func(_ *testing.T, _ *tourEnv, _ *shell, s step) { hub = s }},
		{match: "status --wait-robot reachy", want: []string{"reachy", "living room", "up since"},
			after: func(t *testing.T, te *tourEnv, sh *shell, _ step) { teleportInTheBrowser(t, te, sh, hub) }},
		// "call dad" in the room, no page open: a missed call for Dad, shown by status.
		{match: `speak "hey reachy, call dad"`, after: func(t *testing.T, te *tourEnv, _ *shell, _ step) {
			eventually(t, 60*time.Second, "the hub to hear call dad", func() bool {
				b, _ := os.ReadFile(hub.errFile)
				return strings.Contains(string(b), "intent=teleport.call")
			})
		}},
		{match: "LAST CALLS, MISSED CALLS", want: []string{"MISSED CALLS", "dad@example.com", "reachy", "LAST CALLS", "owner_left", "PRIVACY"}},
		// Step 8: the game, quiet time and privacy mode, by voice, without a model.
		{match: "reachy-hub --sim --broker http://127.0.0.1:8092", want: []string{"intent=play.rps", "intent=play.answer", "intent=play.stop",
			"intent=robot.quiet", "intent=privacy.set", "Privacy mode is on"}, absent: []string{"failure=busy"}},
	})
}

// TestReadmeSimAndTimerTours runs the README's sim-mode section and then its kitchen-timer
// section, as a reader does (the second uses what the first made), line by line.
func TestReadmeSimAndTimerTours(t *testing.T) {
	te := newTourEnv(t)
	runTour(t, te, "## Try the robot without a robot (sim mode)", []expect{
		// No model: the clip's own words (reachyctl speak) are its transcript in dev mode.
		{match: "reachy-hub --sim --broker", want: []string{"intent=house.light.set", "Okay, the kitchen light is on.", "sim: played", "kind=reply",
			"wrote reply-1.wav, turns.json, motions.json, daemon-calls.json, sounds.json"}, absent: []string{"failure=busy"},
			after: func(t *testing.T, te *tourEnv, _ *shell, _ step) {
				if got := kinds(t, te.tmp("sim")); got != "reply/turn" {
					t.Fatalf("sounds.json: %s", got)
				}
				wantWAV(t, te.tmp("sim/001-reply.wav"))
				wantWAV(t, te.tmp("sim/reply-1.wav"))
				if b, _ := os.ReadFile(te.tmp("sim/turns.json")); !strings.Contains(string(b), `"intent": "house.light.set"`) {
					t.Fatalf("turns.json: %s", b)
				}
			}},
		{match: "ls /tmp/sim", want: []string{"001-reply.wav", "reply-1.wav", "sounds.json", "turns.json", "motions.json", "daemon-calls.json"}},
	})
	runTour(t, te, "### A kitchen timer on the sim robot", []expect{
		{match: "--wait-robot reachy", want: []string{"reachy", "up since"}},
		{match: `say "set a pasta timer for 3 seconds"`, want: []string{"Okay. Pasta timer set for three seconds."}, absent: []string{"no robot"}},
		{match: "daemon-calls.json", want: []string{"timer-chime.wav", `"timer-t-`}},
		{match: `announce --all "Dinner is ready"`, want: []string{"announced on reachy"}},
		{match: "announce --robot reachy-attic", rc: 1, want: []string{`no robot named "reachy-attic"`, "unknown_robot"}, absent: []string{"not delivered"}},
		{match: "sounds.json", want: []string{`"kind": "timer_chime"`, `"kind": "timer_ring"`, `"kind": "announcement"`},
			after: func(t *testing.T, te *tourEnv, _ *shell, _ step) {
				if got := kinds(t, te.tmp("sim")); got != "timer_chime/link timer_ring/link announcement/link" {
					t.Fatalf("sounds.json: %s", got)
				}
			}},
	})
}
