package broker

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// auditMentions returns the audit records (of the last n) whose JSON contains any of words.
func auditMentions(t *testing.T, s *store.Store, words ...string) []string {
	t.Helper()
	recs, err := s.TailAudit(context.Background(), 200)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rec := range recs {
		b, _ := json.Marshal(rec)
		for _, w := range words {
			if strings.Contains(strings.ToLower(string(b)), strings.ToLower(w)) {
				out = append(out, string(b))
				break
			}
		}
	}
	return out
}

// TestConsoleExpressionOutsideTheListIsRefused (#25.14): an expression the page does not
// offer is free text: the broker refuses it with invalid_args before it is audited or sent
// to the robot; an expression from the list is sent and audited by name.
func TestConsoleExpressionOutsideTheListIsRefused(t *testing.T) {
	r := newConsoleRig(t)
	tok := r.page(t)
	if resp := r.post(t, tok, "join", map[string]any{}); resp.status != 200 {
		t.Fatalf("join: %d %s", resp.status, resp.body)
	}
	calls := len(r.hub.fake.Calls())
	for _, expr := range []string{"the alarm code is 4321, call 415 555 0134", "DANCE", "dance ", "",
		strings.Repeat("x", 10_000), "nod\u200b"} {
		resp := r.post(t, tok, "expression", map[string]string{"expression": expr})
		if resp.status != 400 || resp.code(t) != api.CodeInvalidArgs {
			t.Errorf("expression %.40q: %d %s", expr, resp.status, resp.body)
		}
	}
	if got := len(r.hub.fake.Calls()); got != calls {
		t.Fatalf("a refused expression reached the robot: %d daemon calls", got-calls)
	}
	if bad := auditMentions(t, r.state, "4321", "0134", "xxxxxxxx", "DANCE", "\u200b"); len(bad) > 0 {
		t.Fatalf("free text reached the audit log: %v", bad)
	}
	if resp := r.post(t, tok, "expression", map[string]string{"expression": "dance"}); resp.status != 200 {
		t.Fatalf("dance: %d %s", resp.status, resp.body)
	}
	recs, _ := r.state.TailAudit(context.Background(), 50)
	var exprs []string
	for _, rec := range recs {
		if rec.Intent == "teleport.expression" {
			exprs = append(exprs, rec.Args["expression"]+"/"+rec.Outcome)
		}
	}
	if strings.Join(exprs, " ") != "dance/ok" {
		t.Fatalf("expression records: %v", exprs)
	}
}

// TestConsoleAuditWritesOnlyClosedValues: whatever a console action carries, its record
// holds a closed value or "unknown" — never the text itself.
func TestConsoleAuditWritesOnlyClosedValues(t *testing.T) {
	tb := newTestBroker(t)
	secret := "the wifi password is hunter2hunter2"
	for _, a := range []console.Action{
		{Owner: dad.Login, Device: "robot", Kind: "teleport.expression", Arg: secret, OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.look", Arg: secret, OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.end", Arg: secret, OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.stop", Arg: secret, OK: true},
	} {
		if err := tb.b.auditConsole(context.Background(), a); err != nil {
			t.Fatal(err)
		}
	}
	if bad := auditMentions(t, tb.state, "hunter2"); len(bad) > 0 {
		t.Fatalf("free text reached the audit log: %v", bad)
	}
	recs, _ := tb.state.TailAudit(context.Background(), 10)
	for _, rec := range recs {
		for k, v := range rec.Args {
			if k != "owner" && v != "unknown" {
				t.Errorf("%s: %s=%q", rec.Intent, k, v)
			}
		}
	}
	for _, ok := range []console.Action{
		{Owner: dad.Login, Device: "robot", Kind: "teleport.expression", Arg: "celebrate", OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.look", Arg: "centre", OK: true},
		{Owner: dad.Login, Device: "robot", Kind: "teleport.end", Arg: console.EndHangUp, OK: true},
	} {
		tb.b.auditConsole(context.Background(), ok)
	}
	if got := auditMentions(t, tb.state, `"celebrate"`, `"centre"`, `"hang_up"`); len(got) != 3 {
		t.Fatalf("closed values not recorded: %v", got)
	}
}

type oneRobotLink struct {
	mu    sync.Mutex
	plays int
}

func (l *oneRobotLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.Type == api.LinkPlay {
		l.plays++
	}
	return api.LinkAckBody{OK: true}, nil
}

func (l *oneRobotLink) Connected() []string { return []string{"robot"} }

// announceTargets posts one announcement per robot name and returns the audited targets,
// sorted.
func announceTargets(t *testing.T, tb *testBroker, robots ...string) []string {
	t.Helper()
	op := tb.token(t, "mom-phone", "announce")
	for _, robot := range robots {
		body, _ := json.Marshal(api.AnnounceRequest{Robot: robot, Text: "Dinner is ready"})
		// A name the broker does not know is refused with unknown_robot (#29.1); any other
		// announcement is answered with where it was delivered.
		if r := tb.do(t, "POST", "/v1/announcements", op, "application/json", body); r.status != 200 && (r.status != 404 || r.code(t) != api.CodeUnknownRobot) {
			t.Fatalf("announce to %q: %d %s", robot, r.status, r.body)
		}
	}
	recs, _ := tb.state.TailAudit(context.Background(), 50)
	var targets []string
	for _, rec := range recs {
		if rec.Intent == "announce" {
			targets = append(targets, rec.Args["target"]+"/"+rec.Outcome)
		}
	}
	slices.Sort(targets)
	return targets
}

// TestAnnouncementAuditsOnlyAKnownTarget (#25.14): an announcement to a robot name the broker
// does not know is audited with the target "unknown", never the name as typed.
func TestAnnouncementAuditsOnlyAKnownTarget(t *testing.T) {
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Announcer = &announce.Announcer{Link: &oneRobotLink{}, Audit: AnnouncementAudit(d.State)}
	})
	got := announceTargets(t, tb, "robot", "grandma's pin is 4321 call 415 555 0134")
	if strings.Join(got, " ") != "robot/ok unknown/failed" {
		t.Fatalf("audited targets: %v", got)
	}
	if bad := auditMentions(t, tb.state, "4321", "0134", "grandma"); len(bad) > 0 {
		t.Fatalf("free text reached the audit log: %v", bad)
	}
}

// TestAnnouncementToAnOfflineRobotNamesIt: a configured robot that is offline is a known
// target and is audited by name, as the broker wires it (Known = KnownRobot); a name that is
// neither configured nor linked is refused with unknown_robot ("no robot named attic", #29.1)
// and audited as unknown.
func TestAnnouncementToAnOfflineRobotNamesIt(t *testing.T) {
	ann := &announce.Announcer{Link: &oneRobotLink{}}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		ann.Audit = AnnouncementAudit(d.State)
		d.Announcer = ann
	})
	ann.Known = tb.b.KnownRobot
	op := tb.token(t, "mom-phone", "announce")
	r := tb.do(t, "POST", "/v1/announcements", op, "application/json", []byte(`{"robot": "attic", "text": "Dinner"}`))
	if r.status != 404 || r.code(t) != api.CodeUnknownRobot || !strings.Contains(string(r.body), `no robot named \"attic\"`) {
		t.Fatalf("unknown robot: %d %s", r.status, r.body)
	}
	r = tb.do(t, "POST", "/v1/announcements", op, "application/json", []byte(`{"robot": "bedside", "text": "Dinner"}`))
	if r.status != 200 || !strings.Contains(string(r.body), `"not_delivered":["bedside"]`) {
		t.Fatalf("offline robot: %d %s", r.status, r.body)
	}
	got := announceTargets(t, tb)
	if strings.Join(got, " ") != "bedside/failed unknown/invalid" {
		t.Fatalf("audited targets: %v", got)
	}
}
