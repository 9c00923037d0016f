package announce

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/api"
)

type fakeLink struct {
	mu        sync.Mutex
	connected []string
	sent      map[string][]api.LinkMessage
	busy      map[string]bool // these robots answer busy (speaking their own reply)
	onSend    func()          // called as each message is sent
}

func (f *fakeLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	if f.onSend != nil {
		f.onSend()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sent == nil {
		f.sent = map[string][]api.LinkMessage{}
	}
	f.sent[dev] = append(f.sent[dev], m)
	if f.busy[dev] {
		return api.LinkAckBody{Code: api.LinkErrBusy}, nil
	}
	return api.LinkAckBody{OK: true}, nil
}

func (f *fakeLink) Connected() []string { return f.connected }

type textSynth struct{}

func (textSynth) Synthesize(ctx context.Context, text string) ([]byte, error) {
	return []byte(text), nil
}

func newAnnouncer() (*Announcer, *fakeLink, *[]Record) {
	link := &fakeLink{connected: []string{"kitchen-robot", "den-robot"}}
	var recs []Record
	a := &Announcer{Link: link, Synth: textSynth{}, Audit: func(ctx context.Context, r Record) error { recs = append(recs, r); return nil }}
	return a, link, &recs
}

func TestAnnounceToOneRobot(t *testing.T) {
	a, link, recs := newAnnouncer()
	res, err := a.Announce(context.Background(), "mom-phone", api.AnnounceRequest{Robot: "kitchen-robot", Text: "Dinner is ready"})
	if err != nil || len(res.Delivered) != 1 || res.Delivered[0] != "kitchen-robot" || len(res.NotDelivered) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	got := link.sent["kitchen-robot"]
	if len(got) != 1 || got[0].Type != api.LinkPlay || !got[0].Play.Chime || string(got[0].Play.WAV) != "Dinner is ready" {
		t.Fatalf("sent %+v", got)
	}
	if len(link.sent["den-robot"]) != 0 {
		t.Fatal("another robot heard it")
	}
	if len(*recs) != 2 || (*recs)[1].By != "mom-phone" || (*recs)[1].Target != "kitchen-robot" || (*recs)[1].Outcome != OutcomeOK || !(*recs)[1].Settles {
		t.Fatalf("audit %+v", *recs)
	}
}

// TestAnAnnouncementIsAuditedAsPlayed: the record is written pending before anything reaches
// a robot, then settled to what the robots answered — ok when every robot played it, partial
// when one was busy speaking its own reply, failed when none played it — never "ok" for words
// no robot said.
func TestAnAnnouncementIsAuditedAsPlayed(t *testing.T) {
	for _, tc := range []struct {
		name string
		busy map[string]bool
		want string
	}{
		{"both play it", nil, OutcomeOK},
		{"one is busy", map[string]bool{"den-robot": true}, OutcomePartial},
		{"both are busy", map[string]bool{"den-robot": true, "kitchen-robot": true}, OutcomeFailed},
	} {
		a, link, recs := newAnnouncer()
		link.busy = tc.busy
		link.onSend = func() {
			if len(*recs) != 1 || (*recs)[0].Outcome != OutcomePending {
				t.Errorf("%s: sent before a pending record: %+v", tc.name, *recs)
			}
		}
		if _, err := a.Announce(context.Background(), "mom-phone", api.AnnounceRequest{All: true, Text: "Dinner is ready"}); err != nil {
			t.Fatal(err)
		}
		if len(*recs) != 2 || !(*recs)[1].Settles || (*recs)[1].ID != (*recs)[0].ID || (*recs)[1].Outcome != tc.want {
			t.Fatalf("%s: audit %+v, want settled %s", tc.name, *recs, tc.want)
		}
		if tc.want != OutcomeOK && (*recs)[1].Code != CodeNotPlayed {
			t.Fatalf("%s: code %q", tc.name, (*recs)[1].Code)
		}
	}
}

func TestAnnounceToAll(t *testing.T) {
	a, link, recs := newAnnouncer()
	res, err := a.Announce(context.Background(), "mom-phone", api.AnnounceRequest{All: true, Text: "Dinner is ready"})
	if err != nil || len(res.Delivered) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	if len(link.sent["kitchen-robot"]) != 1 || len(link.sent["den-robot"]) != 1 {
		t.Fatalf("sent %+v", link.sent)
	}
	if (*recs)[0].Target != "all" {
		t.Fatalf("audit %+v", *recs)
	}
}

func TestAnnounceToARobotThatIsNotConnected(t *testing.T) {
	a, link, recs := newAnnouncer()
	res, err := a.Announce(context.Background(), "mom-phone", api.AnnounceRequest{Robot: "attic-robot", Text: "Dinner is ready"})
	if err != nil || len(res.Delivered) != 0 || len(res.NotDelivered) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if len(link.sent) != 0 {
		t.Fatal("sent to someone")
	}
	if (*recs)[0].Outcome != "failed" {
		t.Fatalf("audit %+v", *recs)
	}
}

func TestAnnounceRefusesBadRequests(t *testing.T) {
	for _, req := range []api.AnnounceRequest{
		{Robot: "kitchen-robot", Text: "  "},
		{Robot: "kitchen-robot", Text: strings.Repeat("a", MaxChars+1)},
		{Text: "Dinner"},
		{Robot: "kitchen-robot", All: true, Text: "Dinner"},
		{Robot: "kitchen-robot", Text: "\xff\xfe"},
	} {
		a, link, recs := newAnnouncer()
		if _, err := a.Announce(context.Background(), "x", req); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%+v: %v", req, err)
		}
		if len(link.sent) != 0 || len(*recs) != 0 {
			t.Fatalf("%+v: something was sent or audited", req)
		}
	}
}

func TestNothingIsSentWithoutItsAuditRecord(t *testing.T) {
	a, link, _ := newAnnouncer()
	a.Audit = func(ctx context.Context, r Record) error { return errors.New("disk full") }
	if _, err := a.Announce(context.Background(), "x", api.AnnounceRequest{All: true, Text: "Dinner"}); !errors.Is(err, ErrUnaudited) {
		t.Fatal(err)
	}
	if len(link.sent) != 0 {
		t.Fatal("announced without an audit record")
	}
}

// TestAnnounceAuditsOnlyAKnownTarget: the name a caller typed is audited only when it is a
// robot (connected, or known to the broker); anything else is recorded as UnknownTarget.
func TestAnnounceAuditsOnlyAKnownTarget(t *testing.T) {
	a, _, recs := newAnnouncer()
	a.Known = func(d string) bool { return d == "attic-robot" }
	for _, robot := range []string{"kitchen-robot", "attic-robot", "the door code is 4321"} {
		_, err := a.Announce(context.Background(), "mom-phone", api.AnnounceRequest{Robot: robot, Text: "Dinner"})
		if want := robot == "the door code is 4321"; errors.Is(err, ErrUnknownRobot) != want || (err != nil && !want) {
			t.Fatalf("%q: %v", robot, err)
		}
	}
	var got []string
	for _, r := range *recs {
		if !r.Settles {
			got = append(got, r.Target)
		}
	}
	if strings.Join(got, "|") != "kitchen-robot|attic-robot|"+UnknownTarget {
		t.Fatalf("audited targets %q", got)
	}
}
