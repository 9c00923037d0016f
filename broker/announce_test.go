package broker

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/announce"
	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

type playLink struct {
	mu    sync.Mutex
	plays map[string]int
}

func (l *playLink) Send(ctx context.Context, dev string, m api.LinkMessage) (api.LinkAckBody, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.Type == api.LinkPlay {
		l.plays[dev]++
	}
	return api.LinkAckBody{OK: true}, nil
}

func (l *playLink) Connected() []string { return []string{"robot", "bedside"} }

func TestAnnouncementRoute(t *testing.T) {
	link := &playLink{plays: map[string]int{}}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Announcer = &announce.Announcer{Link: link, Audit: AnnouncementAudit(d.State)}
	})
	body := []byte(`{"robot": "robot", "text": "Dinner is ready"}`)
	// Without the announce scope: refused, nothing played.
	if r := tb.do(t, "POST", "/v1/announcements", tb.token(t, "laptop", "text"), "application/json", body); r.status != 403 || r.code(t) != api.CodeInsufficientScope {
		t.Fatalf("%d %s", r.status, r.body)
	}
	op := tb.token(t, "mom-phone", "announce")
	r := tb.do(t, "POST", "/v1/announcements", op, "application/json", body)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var res api.AnnounceResult
	r.json(t, &res)
	if len(res.Delivered) != 1 || res.Delivered[0] != "robot" || link.plays["robot"] != 1 || link.plays["bedside"] != 0 {
		t.Fatalf("%+v %v", res, link.plays)
	}
	if r := tb.do(t, "POST", "/v1/announcements", op, "application/json", []byte(`{"all": true, "text": ""}`)); r.status != 400 || r.code(t) != api.CodeInvalidArgs {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// Audited as an announcement by whom, never the words.
	recs, err := tb.state.TailAudit(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, rec := range recs {
		j, _ := json.Marshal(rec)
		if strings.Contains(strings.ToLower(string(j)), "dinner") {
			t.Fatalf("the words reached the audit log: %s", j)
		}
		if rec.Intent == "announce" && rec.Device == "mom-phone" && rec.Args["target"] == "robot" && rec.Outcome == store.OutcomeOK {
			found = true
		}
	}
	if !found {
		t.Fatalf("no announcement record: %+v", recs)
	}
}

func TestAnnouncementNotSentWhenAuditFails(t *testing.T) {
	link := &playLink{plays: map[string]int{}}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Announcer = &announce.Announcer{Link: link, Audit: func(context.Context, announce.Record) error { return context.DeadlineExceeded }}
	})
	r := tb.do(t, "POST", "/v1/announcements", tb.token(t, "mom-phone", "announce"), "application/json", []byte(`{"all": true, "text": "Dinner"}`))
	if r.status != 503 || r.code(t) != api.CodeUnavailable || len(link.plays) != 0 {
		t.Fatalf("%d %s %v", r.status, r.body, link.plays)
	}
}
