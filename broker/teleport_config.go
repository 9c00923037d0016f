package broker

import (
	"net/url"
	"slices"
	"strings"
)

// Consent modes of teleport.consent.
const (
	ConsentAnnounce = "announce" // the join chime and "Dad is joining", then the call
	ConsentAsk      = "ask"      // the robot asks; someone in the room must say yes
)

// validate checks the teleport section: consent modes, the people call-back rings and the
// webhook's address.
func (t *TeleportConfig) validate(bad func(string, ...any) error) error {
	modes := []string{ConsentAnnounce, ConsentAsk}
	if !slices.Contains(modes, t.Consent) {
		return bad("teleport.consent %q: use announce or ask", t.Consent)
	}
	for login, m := range t.ConsentByOwner {
		if !slices.Contains(modes, m) {
			return bad("teleport.consent_by_owner[%s] %q: use announce or ask", login, m)
		}
		if !slices.ContainsFunc(t.Owners, func(o string) bool { return strings.EqualFold(o, login) }) {
			return bad("teleport.consent_by_owner: %s is not one of teleport.owners", login)
		}
	}
	for person, login := range t.People {
		if !slices.ContainsFunc(t.Owners, func(o string) bool { return strings.EqualFold(o, login) }) {
			return bad("teleport.people[%s]: %s is not one of teleport.owners", person, login)
		}
	}
	if t.AskTimeout < 0 || t.CallWebhookTimeout < 0 || t.RingTimeout < 0 {
		return bad("teleport: timeouts must be positive")
	}
	if t.CallWebhook != "" {
		u, err := url.Parse(t.CallWebhook)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return bad("teleport.call_webhook: want an http(s) URL without credentials in it")
		}
	}
	return nil
}

// consentOf is the consent mode of an owner's joins.
func (t *TeleportConfig) consentOf(login string) string {
	for o, m := range t.ConsentByOwner {
		if strings.EqualFold(o, login) {
			return m
		}
	}
	if t.Consent == "" {
		return ConsentAnnounce
	}
	return t.Consent
}
