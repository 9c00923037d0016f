// Package announce owns owner announcements ("Dinner is ready"): the text is checked,
// redacted, synthesized once and sent over the robot link to one robot or to all of them
// with the attention chime; each announcement is audited as an announcement by whom, to
// which robot — never its words. The reachyctl route and the teleport console call the same
// Announcer.
//
// It must never keep or log the words, never send anything before its audit record is
// written, and never send to a robot that is not named (or "all").
package announce

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Link sends typed actions to robots (the broker's link registry implements it).
type Link interface {
	Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error)
	Connected() []string
}

// Record is the audit record of one announcement: who, to which robot, the outcome.
type Record struct {
	Time   time.Time
	ID     string
	By     string // the operator's device name
	Target string // a known robot's name, "all", or UnknownTarget
	// Outcome: pending (written before anything is sent), then ok (every robot played
	// it), partial (some did) or failed (none did, or none was connected); invalid for an
	// unknown robot.
	Outcome string
	Code    string // why a settled announcement is not ok: not_played
	// Settles: this record is the outcome of the pending record with the same ID.
	Settles bool
}

// The outcomes an announcement's record settles to.
const (
	OutcomePending = "pending"
	OutcomeOK      = "ok"
	OutcomePartial = "partial"
	OutcomeFailed  = "failed"
	// CodeNotPlayed is a settled record's code when a robot did not play it.
	CodeNotPlayed = "not_played"
)

// UnknownTarget is what the audit log names as the target of an announcement to a robot
// the broker does not know: the name a caller typed is free text and never recorded.
const UnknownTarget = "unknown"

// MaxChars bounds an announcement.
const MaxChars = 300

// Errors of Announce. ErrInvalid covers the caller's mistakes (empty, too long, no robot
// named); ErrUnaudited means nothing was sent because the audit record could not be written.
var (
	ErrInvalid   = errors.New("invalid announcement")
	ErrUnaudited = errors.New("the announcement could not be audited")
	// ErrUnknownRobot: the named robot is neither configured nor linked since start (a typo,
	// not an offline robot). It is audited as refused, to UnknownTarget.
	ErrUnknownRobot = errors.New("unknown robot")
)

// Announcer speaks announcements on robots.
type Announcer struct {
	Link   Link               // nil: nothing is delivered
	Synth  speech.Synthesizer // nil: the robots play the chime only
	Redact func(string) (string, error)
	Audit  func(context.Context, Record) error // required
	// Known reports whether a name is one of the broker's robots (configured, or linked since
	// start). A target that is neither known nor connected is audited as "unknown", never as
	// the name the caller typed. nil: only connected robots are known.
	Known      func(device string) bool
	Expression string        // sent after the speech; default none
	Timeout    time.Duration // per robot; default 10 s
	Log        *slog.Logger
	// Quiet reports whether a robot is in quiet time ("be quiet for an hour"): it hears the
	// attention chime only, not the words. nil: no robot is ever quiet.
	Quiet func(device string) bool
}

// Announce speaks text on the named robot (or, with all, on every connected robot) on
// behalf of the operator device by.
func (a *Announcer) Announce(ctx context.Context, by string, req api.AnnounceRequest) (api.AnnounceResult, error) {
	res := api.AnnounceResult{Delivered: []string{}, NotDelivered: []string{}}
	text := strings.TrimSpace(req.Text)
	switch {
	case text == "":
		return res, fmt.Errorf("%w: the text is empty", ErrInvalid)
	case !utf8.ValidString(text) || utf8.RuneCountInString(text) > MaxChars:
		return res, fmt.Errorf("%w: the text must be valid UTF-8 of at most %d characters", ErrInvalid, MaxChars)
	case req.All == (req.Robot != ""):
		return res, fmt.Errorf("%w: name one robot or all of them", ErrInvalid)
	}
	var connected []string
	if a.Link != nil {
		connected = a.Link.Connected()
	}
	targets, target := connected, "all"
	if !req.All {
		target = UnknownTarget
		targets = nil
		if slices.Contains(connected, req.Robot) {
			targets = []string{req.Robot}
		} else {
			res.NotDelivered = append(res.NotDelivered, req.Robot)
		}
		if len(targets) > 0 || (a.Known != nil && a.Known(req.Robot)) {
			target = req.Robot
		}
	}
	slices.Sort(targets)
	id := newID()
	rec := Record{Time: time.Now().UTC(), ID: id, By: by, Target: target, Outcome: OutcomePending}
	unknown := !req.All && target == UnknownTarget && a.Known != nil
	switch {
	case unknown:
		rec.Outcome = "invalid"
	case len(targets) == 0:
		rec.Outcome = OutcomeFailed
	}
	if err := a.Audit(ctx, rec); err != nil {
		return res, fmt.Errorf("%w: %v", ErrUnaudited, err)
	}
	if unknown {
		return api.AnnounceResult{Delivered: []string{}, NotDelivered: []string{}},
			fmt.Errorf("no robot named %q: none is configured by that name or has linked since the broker started (%w)", req.Robot, ErrUnknownRobot)
	}
	if len(targets) == 0 {
		return res, nil
	}
	// The record was written pending; whatever happens next settles it, once.
	defer func() { a.settle(ctx, rec, res) }()
	spoken := text
	if a.Redact != nil {
		r, err := a.Redact(text)
		if err != nil {
			return res, fmt.Errorf("redact the announcement: %w", err)
		}
		spoken = r
	}
	var wav []byte
	if a.Synth != nil {
		var err error
		if wav, err = a.Synth.Synthesize(ctx, spoken); err != nil {
			a.log().Warn("announcement not synthesized; the robots play the chime only", "err", err)
		}
	}
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	for _, dev := range targets {
		play := wav
		if a.Quiet != nil && a.Quiet(dev) {
			play = nil // quiet time: the chime alone
		}
		sctx, cancel := context.WithTimeout(ctx, timeout)
		ack, err := a.Link.Send(sctx, dev, api.LinkMessage{Type: api.LinkPlay, ID: id + "-" + dev, Play: &api.LinkPlayAction{WAV: play, Chime: true, Kind: api.PlayAnnouncement}})
		cancel()
		if err != nil || !ack.OK {
			a.log().Warn("announcement not played", "device", dev, "err", err, "code", ack.Code)
			res.NotDelivered = append(res.NotDelivered, dev)
			continue
		}
		res.Delivered = append(res.Delivered, dev)
		if a.Expression != "" {
			sctx, cancel := context.WithTimeout(ctx, timeout)
			a.Link.Send(sctx, dev, api.LinkMessage{Type: api.LinkExpression, ID: id + "-" + dev + "-x", Expression: a.Expression})
			cancel()
		}
	}
	return res, nil
}

// settle gives the pending record its outcome: what the robots answered. It runs even when
// the caller has gone (the words may already be playing), bounded.
func (a *Announcer) settle(ctx context.Context, rec Record, res api.AnnounceResult) {
	rec.Settles = true
	switch {
	case len(res.NotDelivered) == 0 && len(res.Delivered) > 0:
		rec.Outcome = OutcomeOK
	case len(res.Delivered) > 0:
		rec.Outcome, rec.Code = OutcomePartial, CodeNotPlayed
	default:
		rec.Outcome, rec.Code = OutcomeFailed, CodeNotPlayed
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := a.Audit(sctx, rec); err != nil {
		a.log().Error("an announcement's outcome could not be audited; its record stays pending", "id", rec.ID, "outcome", rec.Outcome, "err", err)
	}
}

func (a *Announcer) log() *slog.Logger {
	if a.Log != nil {
		return a.Log
	}
	return slog.Default()
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "ann-" + hex.EncodeToString(b)
}
