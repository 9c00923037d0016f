package console

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
)

// Consent modes (teleport.consent).
const (
	ConsentAnnounce = "announce" // the chime and "Dad is joining", then the call
	ConsentAsk      = "ask"      // the robot asks; someone in the room must say yes or come in
)

// privacyMode refuses a join while the robot's room has privacy mode on. A store that
// cannot say refuses too: privacy errs towards no call.
func (c *Console) privacyMode(ctx context.Context, device string) error {
	if c.d.Privacy == nil {
		return nil
	}
	on, err := c.d.Privacy(ctx, device)
	if err != nil {
		c.log.Error("console: privacy mode unknown; join refused", "device", device, "err", err)
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "the broker cannot tell whether the room turned privacy mode on, so nobody can join right now"}
	}
	if on {
		return &consoleError{status: http.StatusConflict, code: api.CodePrivacyMode,
			msg: device + " is in privacy mode: the room turned calls off. Nobody can join until someone there says \"privacy mode off\"."}
	}
	return nil
}

// holdOpenForJoin lets a join's answer outlive the server's write timeout: a join waits for
// the robot to announce the owner (JoinTimeout) and, in ask mode, for the room's yes
// (AskTimeout), and the owner must still be told how it ended.
func (c *Console) holdOpenForJoin(w http.ResponseWriter) {
	wait := c.d.JoinTimeout + 30*time.Second
	if c.d.Consent != nil {
		wait += c.d.AskTimeout
	}
	if err := http.NewResponseController(w).SetWriteDeadline(time.Now().Add(wait)); err != nil {
		c.log.Debug("console: join's write deadline not extended", "err", err)
	}
}

func (c *Console) consentOf(p Person) string {
	if c.d.Consent == nil {
		return ConsentAnnounce
	}
	return c.d.Consent(p.Login)
}

// joinSentence is what the robot says after the join chime: an announcement, or in ask mode
// a question the room answers.
func joinSentence(p Person, mode string) string {
	if mode == ConsentAsk {
		return displayName(p) + " would like to join. Say yes, or come in."
	}
	return displayName(p) + " is joining."
}

// answerHeard hands a heard clip to a join that waits for the room's yes; it reports whether
// the session was asking (the clip is then the room's answer, never the owner's).
func (c *Console) answerHeard(s *session, e link.Event) bool {
	c.mu.Lock()
	ch := s.asking
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	select {
	case ch <- e:
	default: // an answer is being heard already; the first one decides
	}
	return true
}

// startAsking makes s take the room's next utterance as its answer. It is called before the
// question is played: the hub sends what the room says as soon as it has played it, and an
// answer must not slip in before the broker is listening for it.
func (c *Console) startAsking(s *session) chan link.Event {
	ch := make(chan link.Event, 1)
	c.mu.Lock()
	s.asking = ch
	c.mu.Unlock()
	return ch
}

// askRoom waits for the room's answer after the robot asked "may Dad join?": yes or come in
// (and close paraphrases) lets the owner in; anything else, or nothing for AskTimeout,
// declines. Nothing the room says here reaches the owner.
func (c *Console) askRoom(s *session, ch chan link.Event) error {
	defer func() {
		c.mu.Lock()
		s.asking = nil
		c.mu.Unlock()
	}()
	t := time.NewTimer(c.d.AskTimeout)
	defer t.Stop()
	declined := func(why string) error {
		return &consoleError{status: http.StatusConflict, code: api.CodeDeclined, msg: why}
	}
	select {
	case <-s.ctx.Done():
		return &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the call ended before the room answered"}
	case <-t.C:
		return declined("nobody in the room said yes within " + c.d.AskTimeout.String() + ", so the call did not start")
	case e := <-ch:
		var h Heard
		if c.d.Hear != nil {
			hctx, cancel := context.WithTimeout(s.ctx, 20*time.Second)
			var err error
			h, err = c.d.Hear(hctx, e.Device, e.WAV)
			cancel()
			if err != nil {
				c.log.Warn("console: the room's answer could not be transcribed; declined", "device", e.Device, "err", err)
			}
		}
		if s.ctx.Err() != nil { // the answer was "privacy mode on" or "hang up": already ended
			return &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the call ended before the room answered"}
		}
		if consents(h.Text) {
			return nil
		}
		return declined("the room said no, so the call did not start")
	}
}

// consents reports whether the room's answer is a yes: "yes", "come in", "sure", "go
// ahead", "let him in" and close paraphrases, with nothing that says no or not yet.
func consents(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(words) == 0 || len(words) > 8 {
		return false
	}
	for _, w := range words {
		switch w {
		case "no", "nope", "nah", "not", "don't", "dont", "never", "later", "wait", "busy", "stop", "hang", "without", "rather", "isn't", "can't", "cannot", "won't":
			return false
		}
	}
	t := " " + strings.Join(words, " ") + " "
	for _, yes := range []string{" yes ", " yeah ", " yep ", " yup ", " sure ", " ok ", " okay ", " come in ", " come on in ",
		" go ahead ", " let him in ", " let her in ", " let them in ", " of course ", " please do ", " absolutely ",
		" alright ", " all right ", " certainly ", " welcome "} {
		if strings.Contains(t, yes) {
			return true
		}
	}
	return false
}

// declineJoin ends a join the room did not let in: the robot drops the presence pose and
// says so, the audit records the end as declined, and the owner is told.
func (c *Console) declineJoin(ctx context.Context, s *session, why error) error {
	c.mu.Lock()
	ours := c.sessions[s.device] == s
	if ours {
		delete(c.sessions, s.device)
	}
	c.mu.Unlock()
	s.stop()
	if !ours {
		return why
	}
	ctx = context.WithoutCancel(ctx)
	c.d.Audit(ctx, Action{Owner: s.owner.Login, Device: s.device, Kind: "teleport.end", Arg: api.CallEndDeclined, OK: true})
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.send(pctx, s.device, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}}); err != nil {
		c.log.Warn("console: robot not told the declined join ended", "device", s.device, "err", err)
	} else {
		c.announce(pctx, s.device, "Okay, "+displayName(s.owner)+" will not join.")
	}
	c.log.Info("teleport join declined in the room", "device", s.device, "owner", s.owner.Login)
	return why
}
