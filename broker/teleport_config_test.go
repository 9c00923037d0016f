package broker

import (
	"strings"
	"testing"
	"time"
)

// TestTeleportConsentConfig: the consent, call-back and webhook keys load with their
// defaults, a mode per owner is read, and a bad value is an error that names its key.
func TestTeleportConsentConfig(t *testing.T) {
	cfg, _, err := ParseConfig([]byte(`state_dir: /x
teleport:
  owners: [dad@example.com, mum@example.com]
  consent_by_owner: {mum@example.com: ask}
  people: {dad: dad@example.com}
  call_webhook: https://notify.example.ts.net/reachy
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tc := cfg.Teleport
	if tc.Consent != ConsentAnnounce || tc.AskTimeout != 20*time.Second || tc.RingTimeout != time.Minute || tc.CallWebhookTimeout != 5*time.Second {
		t.Fatalf("defaults: %+v", tc)
	}
	if tc.consentOf("MUM@example.com") != ConsentAsk || tc.consentOf("dad@example.com") != ConsentAnnounce {
		t.Fatal("consent per owner not read")
	}
	for _, c := range []struct{ yaml, want string }{
		{"teleport:\n  consent: maybe\n", "teleport.consent"},
		{"teleport:\n  owners: [a@b.c]\n  consent_by_owner: {x@y.z: ask}\n", "not one of teleport.owners"},
		{"teleport:\n  owners: [a@b.c]\n  consent_by_owner: {a@b.c: always}\n", "consent_by_owner"},
		{"teleport:\n  owners: [a@b.c]\n  people: {dad: x@y.z}\n", "teleport.people[dad]"},
		{"teleport:\n  owners: [a@b.c]\n  people: {uncle: a@b.c}\n", `"uncle" is not a person of the home`},
		{"teleport:\n  call_webhook: ftp://x/\n", "call_webhook"},
		{"teleport:\n  call_webhook: https://user:secret@x/\n", "call_webhook"},
	} {
		_, _, err := ParseConfig([]byte("state_dir: /x\n"+c.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.yaml, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("the error repeats the webhook's password: %v", err)
		}
	}
}
