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
}

func (f *fakeLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sent == nil {
		f.sent = map[string][]api.LinkMessage{}
	}
	f.sent[dev] = append(f.sent[dev], m)
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
	if len(*recs) != 1 || (*recs)[0].By != "mom-phone" || (*recs)[0].Target != "kitchen-robot" || (*recs)[0].Outcome != "ok" {
		t.Fatalf("audit %+v", *recs)
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
		got = append(got, r.Target)
	}
	if strings.Join(got, "|") != "kitchen-robot|attic-robot|"+UnknownTarget {
		t.Fatalf("audited targets %q", got)
	}
}
