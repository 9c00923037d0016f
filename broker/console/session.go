package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
	"github.com/reachy-broker/reachy-broker/speech"
)

// session is one owner connected to one robot. Everything in it lives in memory only.
//
// A session is live only once the robot has played the join chime and announcement to
// their end (join.go): before that nothing from the room — no heard clip, no transcript —
// reaches the owner, and the owner cannot speak or move the robot.
type session struct {
	device string
	owner  Person
	since  time.Time
	last   time.Time // last action or utterance: the idle timeout counts from here
	live   bool      // the robot acknowledged the join announcement as played
	call   *call     // the session's live call, if the page started one (call.go)
	// pageSeen is when the page that joined (owner.Page) last asked anything: its heartbeat.
	pageSeen time.Time

	ctx  context.Context    // lives as long as the session; ends a join in progress and its hearing
	stop context.CancelFunc // ends ctx
	// queue holds utterances waiting for transcription: bounded, one transcription at a time
	// per robot, short ones (the room's control words) first, the oldest chatter dropped
	// when it is full (heard.go). hear wakes the transcriber.
	queue []link.Event
	hear  chan struct{}
	// asking, while the robot waits for the room's yes (ask mode, consent.go), receives what
	// the room says instead of the owner.
	asking    chan link.Event
	clips     []clip
	clipBytes int
	nextID    int
}

type clip struct {
	ID   int       `json:"id"`
	At   time.Time `json:"at"`
	Text string    `json:"text"`
	Note string    `json:"note,omitempty"` // why there is no transcript (Heard.Note)
	// NoAudio: a note alone (speech that was not transcribed, dropped): nothing to play.
	NoAudio bool `json:"no_audio,omitempty"`
	wav     []byte
}

// Look directions the page offers, in degrees (yaw positive to the robot's left, pitch
// negative up). The hub clamps to the robot's limits either way.
var looks = map[string][2]float64{
	"left": {30, 0}, "right": {-30, 0}, "up": {0, -20}, "down": {0, 20}, "centre": {0, 0},
}

// End reasons, as audited and shown: the closed api.CallEnd values.
const (
	EndPage         = api.CallEndOwnerLeft
	EndHangUp       = api.CallEndHangUp
	EndIdle         = api.CallEndIdle
	EndRobotOffline = api.CallEndRobotOffline
	EndPageLost     = api.CallEndPageLost
	EndQuietTime    = api.CallEndQuietTime
)

func (c *Console) serveAction(w http.ResponseWriter, r *http.Request) {
	device, action := r.PathValue("device"), r.PathValue("action")
	p := personOf(r)
	if _, ok := c.robot(device); !ok {
		writeErr(w, &consoleError{status: http.StatusNotFound, code: api.CodeNotFound, msg: "no such robot"})
		return
	}
	ctx := r.Context()
	var err error
	switch action {
	case "call": // the page's WebRTC offer; the answer is the reply (call.go)
		c.serveCall(w, r, p, device)
		return
	case "keepalive": // "I'm still here": the idle timer starts again
		err = c.mine(p, device)
	case "look_at":
		var body struct {
			X *float64 `json:"x"`
			Y *float64 `json:"y"`
		}
		if err = decodeJSON(r, &body); err == nil {
			if body.X == nil || body.Y == nil {
				err = &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "x and y must be between -1 and 1"}
				break
			}
			err = c.lookAt(ctx, p, device, *body.X, *body.Y)
		}
	case "join":
		c.holdOpenForJoin(w)
		err = c.join(ctx, p, device)
	case "leave": // also while joining: it cancels the join
		if err = c.holder(p, device); err == nil {
			err = c.end(ctx, device, EndPage)
		}
	case "say":
		var body struct {
			Text string `json:"text"`
		}
		if err = decodeJSON(r, &body); err == nil {
			err = c.say(ctx, p, device, body.Text)
		}
	case "talk":
		err = c.talk(ctx, w, r, p, device)
	case "expression":
		var body struct {
			Expression string `json:"expression"`
		}
		if err = decodeJSON(r, &body); err == nil {
			// Only the closed list reaches the robot and the audit log: anything else is the
			// caller's free text, refused before it is recorded or sent.
			if c.d.Expressions == nil || !slices.Contains(c.d.Expressions(), body.Expression) {
				err = &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "the expression must be one of the page's list"}
				break
			}
			err = c.act(ctx, p, device, "teleport.expression", body.Expression, api.LinkMessage{Type: api.LinkExpression, Expression: body.Expression})
		}
	case "look":
		var body struct {
			Direction string `json:"direction"`
		}
		if err = decodeJSON(r, &body); err == nil {
			yp, ok := looks[body.Direction]
			if !ok {
				err = &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "direction must be left, right, up, down or centre"}
				break
			}
			err = c.act(ctx, p, device, "teleport.look", body.Direction, api.LinkMessage{Type: api.LinkLook, Look: &api.LinkLookAction{YawDeg: yp[0], PitchDeg: yp[1]}})
		}
	case "stop":
		err = c.act(ctx, p, device, "teleport.stop", "", api.LinkMessage{Type: api.LinkStop})
	default:
		err = &consoleError{status: http.StatusNotFound, code: api.CodeNotFound, msg: "no such action"}
	}
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, c.view(ctx, p))
}

func decodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return &consoleError{status: http.StatusUnsupportedMediaType, code: api.CodeUnsupportedMediaType, msg: "send application/json"}
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 16<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: "the request body is not the expected JSON"}
	}
	return nil
}

// mine checks that p holds device's session and that it is live.
func (c *Console) mine(p Person, device string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.heldBy(p, device)
	switch {
	case err != nil:
		return err
	case !s.live:
		return &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "the robot has not announced you yet"}
	}
	s.last = c.d.Now()
	return nil
}

// holder checks that p holds device's session, live or still joining.
func (c *Console) holder(p Person, device string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.heldBy(p, device)
	return err
}

// heldBy returns device's session if p holds it — the same owner, from the page that
// joined it; c.mu is held.
func (c *Console) heldBy(p Person, device string) (*session, error) {
	s := c.sessions[device]
	switch {
	case s == nil:
		return nil, &consoleError{status: http.StatusConflict, code: api.CodeNoSession, msg: "join the robot first"}
	case !strings.EqualFold(s.owner.Login, p.Login):
		return nil, &consoleError{status: http.StatusConflict, code: api.CodeSessionBusy, msg: displayName(s.owner) + " is connected to this robot"}
	case s.owner.Page != p.Page:
		return nil, &consoleError{status: http.StatusConflict, code: api.CodeSessionBusy,
			msg: "you are connected to this robot from another tab or window; call from here to move the call here (the robot announces you again)"}
	}
	return s, nil
}

// pageSeen notes a request of p's page: the heartbeat of the session it joined.
func (c *Console) pageSeen(p Person) {
	if p.Page == "" {
		return
	}
	now := c.d.Now()
	c.mu.Lock()
	for _, s := range c.sessions {
		if s.owner.Page == p.Page && strings.EqualFold(s.owner.Login, p.Login) {
			s.pageSeen = now
		}
	}
	c.mu.Unlock()
}

func (c *Console) audit(ctx context.Context, a Action) error {
	if err := c.d.Audit(ctx, a); err != nil {
		c.log.Error("console: audit write failed; action not carried out", "kind", a.Kind, "err", err)
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "the audit log cannot record this action, so it was not carried out"}
	}
	return nil
}

// act audits then sends one action of a session: one record, pending until its outcome.
func (c *Console) act(ctx context.Context, p Person, device, kind, arg string, m api.LinkMessage) error {
	if err := c.mine(p, device); err != nil {
		return err
	}
	a := Action{ID: newActionID(), Owner: p.Login, Device: device, Kind: kind, Arg: arg, Pending: true}
	if err := c.audit(ctx, a); err != nil {
		return err
	}
	err := c.send(ctx, device, m)
	c.settle(ctx, a, err)
	return err
}

// settle records the outcome of an action audited pending: its record takes it in place.
func (c *Console) settle(ctx context.Context, a Action, err error) {
	a.Pending, a.OK, a.Code = false, err == nil, ""
	if err != nil {
		a.Code = api.CodeInternal
		var ce *consoleError
		if errors.As(err, &ce) {
			a.Code = ce.code
		}
	}
	if err := c.d.Audit(context.WithoutCancel(ctx), a); err != nil {
		c.log.Error("console: the outcome of an action could not be recorded; its record stays pending", "kind", a.Kind, "err", err)
	}
}

// end closes device's session for reason: the robot drops the presence pose. A join still
// waiting for its announcement stops waiting.
func (c *Console) end(ctx context.Context, device, reason string) error {
	c.mu.Lock()
	s := c.sessions[device]
	delete(c.sessions, device)
	var live *call
	var done chan struct{}
	if s != nil {
		live, s.call = s.call, nil
		c.lastEnd[device] = ended{owner: s.owner.Login, reason: reason, at: c.d.Now()}
		done = make(chan struct{})
		c.ending[device] = done
	}
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	defer func() {
		c.mu.Lock()
		if c.ending[device] == done {
			delete(c.ending, device)
		}
		c.mu.Unlock()
		close(done)
	}()
	s.stop()
	ctx = context.WithoutCancel(ctx)
	if live != nil { // the media stops before the presence pose drops
		c.stopCall(ctx, s.owner.Login, device, live.id, reason, "")
	}
	c.d.Audit(ctx, Action{Owner: s.owner.Login, Device: device, Kind: "teleport.end", Arg: reason, OK: true})
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.send(sctx, device, api.LinkMessage{Type: api.LinkPresence, Presence: &api.LinkPresenceAction{Active: false}}); err != nil {
		c.log.Warn("console: robot not told the session ended", "device", device, "err", err)
	} else if s.live { // a room that never heard "joining" hears no "has left"
		c.announce(sctx, device, displayName(s.owner)+" has left.")
	}
	c.log.Info("teleport session ended", "device", device, "owner", s.owner.Login, "reason", reason)
	return nil
}

// EndSession ends device's session, if there is one, for reason (EndHangUp when the room
// said so through a turn). It reports whether a session was ended.
func (c *Console) EndSession(ctx context.Context, device, reason string) bool {
	c.mu.Lock()
	on := c.sessions[device] != nil
	c.mu.Unlock()
	if on {
		c.end(ctx, device, reason)
	}
	return on
}

// endIdle ends live sessions nobody used for IdleTimeout, and sessions — live or still
// joining (the room being asked) — whose page has not asked anything for PageTimeout
// (closed, asleep, offline): no keepalive of another page, nothing the robot does, and no
// "yes" from the room holds or starts a session whose page is gone.
func (c *Console) endIdle(ctx context.Context) {
	now := c.d.Now()
	ends := map[string]string{}
	c.mu.Lock()
	for d, s := range c.sessions {
		switch {
		case now.Sub(s.pageSeen) > c.d.PageTimeout:
			ends[d] = EndPageLost
		case s.live && now.Sub(s.last) > c.d.IdleTimeout:
			ends[d] = EndIdle
		}
	}
	c.mu.Unlock()
	for d, why := range ends {
		c.end(ctx, d, why)
	}
}

// say speaks a typed sentence through the robot.
func (c *Console) say(ctx context.Context, p Person, device, text string) error {
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text))
	if text == "" || len([]rune(text)) > c.d.MaxText {
		return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidArgs, msg: fmt.Sprintf("type between 1 and %d characters", c.d.MaxText)}
	}
	if c.d.Synthesize == nil {
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "speech synthesis is not configured"}
	}
	if err := c.mine(p, device); err != nil {
		return err
	}
	if err := c.quietSpeech(device); err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	wav, err := c.d.Synthesize(sctx, text)
	cancel()
	if err != nil {
		c.log.Warn("console: synthesis failed", "err", err)
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeUnavailable, msg: "the sentence could not be synthesized"}
	}
	return c.act(ctx, p, device, "teleport.say", "", api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Kind: api.PlayTeleportSay}})
}

// talk plays a push-to-talk clip: a WAV from the browser, within the size and length caps.
func (c *Console) talk(ctx context.Context, w http.ResponseWriter, r *http.Request, p Person, device string) error {
	if ct := r.Header.Get("Content-Type"); ct != "audio/wav" && ct != "audio/x-wav" && ct != "audio/wave" {
		return &consoleError{status: http.StatusUnsupportedMediaType, code: api.CodeUnsupportedMediaType, msg: "send audio/wav"}
	}
	tooLarge := &consoleError{status: http.StatusRequestEntityTooLarge, code: api.CodeTooLarge,
		msg: fmt.Sprintf("a push-to-talk clip is at most %s and %d KiB", c.d.MaxTalk, c.d.MaxTalkSize>>10)}
	if r.ContentLength > c.d.MaxTalkSize {
		return tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, c.d.MaxTalkSize))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return tooLarge
		}
		return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidAudio, msg: "the clip could not be read"}
	}
	if err := c.mine(p, device); err != nil {
		return err
	}
	if err := c.quietSpeech(device); err != nil {
		return err
	}
	clip, err := speech.DecodeWAV(body, 10*time.Minute) // the size cap already bounds it
	if err != nil {
		return &consoleError{status: http.StatusBadRequest, code: api.CodeInvalidAudio, msg: "the clip is not a usable PCM WAV"}
	}
	if clip.Duration() > c.d.MaxTalk {
		return tooLarge
	}
	wav, err := speech.EncodeWAV(clip.Samples, speech.SampleRate)
	if err != nil {
		return err
	}
	return c.act(ctx, p, device, "teleport.talk", "", api.LinkMessage{Type: api.LinkPlay, Play: &api.LinkPlayAction{WAV: wav, Kind: api.PlayTeleportTalk}})
}

// quietSpeech refuses the owner's speech (typed or push-to-talk) while the room is in quiet
// time. Quiet time set during a session ends it; this covers the moment in between.
func (c *Console) quietSpeech(device string) error {
	if !c.quiet(device) {
		return nil
	}
	return &consoleError{status: http.StatusConflict, code: api.CodeQuietTime,
		msg: device + " is in quiet time: the room asked not to be disturbed, so the robot says nothing for you now."}
}

// hangUp recognizes the room's words that end a session, whatever the router knows.
func hangUp(text string) bool {
	t := strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	}), " ")
	for _, p := range []string{"hang up", "end the call", "end call", "stop the call"} {
		if t == p || strings.HasPrefix(t, p+" ") || strings.HasSuffix(t, " "+p) || strings.Contains(t, " "+p+" ") {
			return true
		}
	}
	return false
}

func (c *Console) serveClip(w http.ResponseWriter, r *http.Request) {
	device := r.PathValue("device")
	id, err := strconv.Atoi(r.PathValue("id"))
	p := personOf(r)
	if err != nil {
		writeErr(w, &consoleError{status: http.StatusNotFound, code: api.CodeNotFound, msg: "no such clip"})
		return
	}
	c.mu.Lock()
	var wav []byte
	if s := c.sessions[device]; s != nil && strings.EqualFold(s.owner.Login, p.Login) && s.owner.Page == p.Page {
		for _, cl := range s.clips {
			if cl.ID == id {
				wav = cl.wav
			}
		}
	}
	c.mu.Unlock()
	if wav == nil {
		writeErr(w, &consoleError{status: http.StatusNotFound, code: api.CodeNotFound, msg: "no such clip in your session"})
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.Write(wav)
}
