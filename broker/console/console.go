// Package console owns the teleport console: the owner's web page served by the broker on
// its tailnet listener, the same-origin JSON calls behind it, and the teleport sessions they
// run (one per robot) — join and leave with a spoken, visible announcement in the room,
// typed and push-to-talk speech to the robot, the room's utterances back to the page as
// clips, expressions and looks, and the audit of each.
//
// It must never identify a person by anything but the Tailscale identity of the connection
// (no passwords, no tokens in the browser's storage; tagged nodes are machines and are
// refused), never act on a state-changing request from another origin or without the
// page's per-page token, never serve or link a third-party asset, never keep a heard clip
// or a sentence beyond its session or write one to disk, and never audit words or audio —
// only who, which robot, and the kind of each action.
package console

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/link"
)

// ErrNoDevOwner is what Identify returns for a broker in loopback dev mode started without
// an owner (--dev-owner): nobody can be identified, and the page says how to name one.
var ErrNoDevOwner = errors.New("no tailnet identity: the broker runs on loopback without --dev-owner")

// Person is who is behind a connection, from the tailnet's WhoIs.
type Person struct {
	Login   string // the user's login name, e.g. dad@example.com
	Display string // a display name; the announcement says it ("Dad is joining")
	Node    string // the node the browser runs on
	Tags    []string
	// Page names the page (one load of the console, by its token) a request came from; a
	// session belongs to the page that joined it. "" outside the console's API calls.
	Page string
}

// Tagged reports whether the connection comes from a tagged node: a machine, not a person.
func (p Person) Tagged() bool { return len(p.Tags) > 0 }

// Robot is a device the page lists.
type Robot struct {
	Device string
	Room   string
}

// Heard is what the broker made of an utterance heard during a session.
type Heard struct {
	Text   string // the transcript, shown on the page beside the clip
	Intent string // the intent the router chose; robot.stop and session.end act instead
	// Note says why there is no transcript ("not transcribed: no speech-to-text model"),
	// shown in its place; "" when it was transcribed (no words recognized is Text "").
	Note string
}

// NoteNoSTT is the note of a clip heard by a broker that has no speech-to-text model.
const NoteNoSTT = "not transcribed: no speech-to-text model"

// Action is one audited thing done in the console. It carries no words and no audio.
type Action struct {
	Owner  string // the owner's login
	Device string // the robot
	Kind   string // teleport.start, teleport.end, teleport.say, teleport.talk, teleport.expression, teleport.look, teleport.stop
	Arg    string // a closed value: the expression, the look direction, the end reason
	OK     bool
	Code   string // a closed code when !OK
	// ID names an action audited before it is carried out: the record is written pending
	// (Pending set), and the outcome, with the same ID, updates that record in place.
	ID      string
	Pending bool
}

// newActionID names one audited action; its outcome finds its record by it.
func newActionID() string { return "c-" + rand.Text() }

// Deps are the parts a Console is built from.
type Deps struct {
	Owners []string // logins allowed in (teleport.owners); nobody if empty
	// Identify names the person behind a connection (tsnet WhoIs; dev mode: a fixed owner).
	Identify func(ctx context.Context, remoteAddr string) (Person, error)
	Link     *link.Registry
	Robots   func() []Robot
	// Synthesize speaks a typed sentence (nil: typing is refused).
	Synthesize func(ctx context.Context, text string) ([]byte, error)
	// Hear transcribes and routes an utterance the robot heard during a session.
	Hear func(ctx context.Context, device string, wav []byte) (Heard, error)
	// Expressions is the closed list of expressions the page offers.
	Expressions func() []string
	// Audit records an action before it is carried out; an error stops the action.
	Audit func(ctx context.Context, a Action) error
	// LastTurn is the time of a robot's last turn (zero: none); never what was said.
	LastTurn func(ctx context.Context, device string) time.Time
	// QuietUntil reports whether a robot is in quiet time, and until when: a join is refused
	// then (it would speak in the room). nil: never.
	QuietUntil func(device string) (time.Time, bool)
	// HTTPSOff says why the console is not served over HTTPS ("tailnet-certs-off": the
	// tailnet has HTTPS certificates turned off); the page explains it when the browser
	// gives it no microphone. "": no reason known.
	HTTPSOff string
	// Privacy reports whether a robot's room turned privacy mode on: every join is refused
	// then (consent.go). nil: never.
	Privacy func(ctx context.Context, device string) (bool, error)
	// Consent is an owner's consent mode: ConsentAnnounce (nil: always) or ConsentAsk.
	Consent func(owner string) string
	// Notify tells the home's notifier (teleport.call_webhook) of a missed call-back; it
	// runs on its own goroutine and must bound its own time. nil: none.
	Notify func(ctx context.Context, owner string, n Notice)
	// Missed keeps missed call-backs across restarts (nil: in memory).
	Missed MissedCalls

	IdleTimeout time.Duration // a session with no action and nothing heard ends; default 10 min
	// PageTimeout: a live session whose page has not been heard from for this long (the page
	// asks every second; a closed tab or a sleeping laptop does not) ends as page_lost;
	// default 10 s.
	PageTimeout time.Duration
	JoinTimeout time.Duration // the robot must play the join announcement within this; default 20 s
	RingTimeout time.Duration // an unanswered call-back ring becomes a missed call; default 60 s
	AskTimeout  time.Duration // ask mode: how long the room has to say yes; default 20 s
	MaxTalk     time.Duration // longest push-to-talk clip; default 30 s
	MaxTalkSize int64         // largest push-to-talk upload; default 2 MiB
	MaxText     int           // longest typed sentence; default 300 characters
	// CallLive is told when a call goes live (the robot answered the offer), with how long
	// the answer took since the offer: the operator's time-to-live metric. nil: nobody.
	CallLive func(device string, took time.Duration)
	// LoopbackMedia lets a call's candidates name loopback addresses besides the tailnet's:
	// loopback dev mode only, where the browser and the sim robot share one machine.
	LoopbackMedia bool
	Logger        *slog.Logger
	Now           func() time.Time
}

// Console serves the page and runs the sessions. Create it with New, serve Handler, run Run.
type Console struct {
	d     Deps
	log   *slog.Logger
	media mediaAddrs // which addresses a call's session descriptions may name

	pageKey        []byte         // signs page tokens (http.go)
	drops          *link.LogLimit // per robot: dropped clips cannot flood the log
	droppedNotLive atomic.Uint64
	droppedQueue   atomic.Uint64

	calls *callbacks // call-back rings and missed calls (callback.go)
	// boot names this run of the console: a page that sees it change knows the broker
	// restarted, and that its session and call ended with it.
	boot string

	shutOnce sync.Once
	shutDone chan struct{} // closed once Shutdown has ended every session

	mu       sync.Mutex
	stopping bool                // Shutdown began: no new session, link events ignored
	sessions map[string]*session // by device
	// ending holds, by device, a session whose end is still being carried out (its call
	// stopped, its audit, the presence pose dropped): a join waits for it, so the old
	// session's "presence off" can never reach the robot after the new one's chime.
	ending  map[string]chan struct{}
	lastEnd map[string]ended // by device: how its last session or call ended
}

// New builds a console.
func New(d Deps) (*Console, error) {
	if d.Identify == nil || d.Link == nil || d.Robots == nil || d.Audit == nil {
		return nil, errors.New("console: identify, link, robots and audit are required")
	}
	if d.IdleTimeout <= 0 {
		d.IdleTimeout = 10 * time.Minute
	}
	if d.PageTimeout <= 0 {
		d.PageTimeout = 10 * time.Second
	}
	if d.JoinTimeout <= 0 {
		d.JoinTimeout = 20 * time.Second
	}
	if d.RingTimeout <= 0 {
		d.RingTimeout = time.Minute
	}
	if d.AskTimeout <= 0 {
		d.AskTimeout = 20 * time.Second
	}
	if d.MaxTalk <= 0 {
		d.MaxTalk = 30 * time.Second
	}
	if d.MaxTalkSize <= 0 {
		d.MaxTalkSize = 2 << 20
	}
	if d.MaxText <= 0 {
		d.MaxText = 300
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.LastTurn == nil {
		d.LastTurn = func(context.Context, string) time.Time { return time.Time{} }
	}
	return &Console{d: d, log: d.Logger, media: mediaAddrs{loopback: d.LoopbackMedia}, pageKey: newPageKey(), drops: link.NewLogLimit(3, time.Minute), sessions: map[string]*session{}, ending: map[string]chan struct{}{}, calls: newCallbacks(d.Missed), lastEnd: map[string]ended{},
		boot: rand.Text()[:12], shutDone: make(chan struct{})}, nil
}

// Handler serves the page, its assets and its JSON calls.
func (c *Console) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", c.person(c.servePage))
	mux.HandleFunc("GET /console/app.js", c.person(serveAsset("app.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /console/secure.js", c.person(serveAsset("secure.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /console/app.css", serveAsset("app.css", "text/css; charset=utf-8")) // the refusal page is styled too
	mux.HandleFunc("GET /console/heartbeat.js", c.person(serveAsset("heartbeat.js", "text/javascript; charset=utf-8")))
	mux.HandleFunc("GET /console/api/heartbeat", c.person(c.withPage(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent) // withPage noted the page: that is the heartbeat
	})))
	mux.HandleFunc("GET /console/api/state", c.person(c.withPage(c.serveState)))
	mux.HandleFunc("GET /console/api/page", c.person(c.servePageToken)) // a new token after a restart
	mux.HandleFunc("GET /console/api/robots/{device}/clips/{id}", c.person(c.withPage(c.serveClip)))
	mux.HandleFunc("POST /console/api/robots/{device}/{action}", c.person(c.sameOrigin(c.serveAction)))
	c.callbackRoutes(mux)
	return securityHeaders(mux)
}

// Run ends idle sessions and sessions whose page is gone, and follows the robots' links,
// until ctx ends; then it ends every session as the broker stops (Shutdown).
func (c *Console) Run(ctx context.Context) {
	unsub := c.d.Link.Subscribe(func(e link.Event) { c.onLink(ctx, e) })
	defer unsub()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWait)
			c.Shutdown(sctx)
			cancel()
			return
		case <-t.C:
			c.endIdle(ctx)
		}
	}
}

// shutdownWait bounds ending every session as the broker stops (telling each robot).
const shutdownWait = 3 * time.Second

// Shutdown ends every open session and call as the broker stops: each end is audited as
// broker_restart and each robot is told (bounded by ctx), and no session starts after it.
// Only the first call does the work; the others wait for it (or for ctx).
func (c *Console) Shutdown(ctx context.Context) {
	c.shutOnce.Do(func() {
		defer close(c.shutDone)
		c.mu.Lock()
		c.stopping = true
		devices := make([]string, 0, len(c.sessions))
		for d := range c.sessions {
			devices = append(devices, d)
		}
		c.mu.Unlock()
		var wg sync.WaitGroup
		for _, d := range devices {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.end(ctx, d, api.CallEndBrokerRestart)
			}()
		}
		wg.Wait()
	})
	select {
	case <-c.shutDone:
	case <-ctx.Done():
	}
}

// Restarted records how a robot's last session ended when it ended with an earlier run of
// the broker (broker_restart): its owner's page says so.
func (c *Console) Restarted(device, owner, reason string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.lastEnd[device]; !ok {
		c.lastEnd[device] = ended{owner: owner, reason: reason, at: at}
	}
}

func (c *Console) isOwner(login string) bool {
	return slices.ContainsFunc(c.d.Owners, func(o string) bool { return strings.EqualFold(o, login) })
}

func (c *Console) robot(device string) (Robot, bool) {
	for _, r := range c.d.Robots() {
		if r.Device == device {
			return r, true
		}
	}
	return Robot{}, false
}

// send delivers one action to a robot and turns its ack into an error with a closed code.
func (c *Console) send(ctx context.Context, device string, m api.LinkMessage) error {
	ack, err := c.d.Link.Send(ctx, device, m)
	switch {
	case errors.Is(err, link.ErrOffline), errors.Is(err, link.ErrLinkDown):
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeRobotOffline, msg: "the robot is not connected right now"}
	case err != nil:
		return &consoleError{status: http.StatusGatewayTimeout, code: api.CodeTimeout, msg: "the robot did not answer"}
	case !ack.OK && ack.Code == api.LinkErrBusy:
		return &consoleError{status: http.StatusServiceUnavailable, code: api.CodeBusy, msg: "the robot is speaking its own reply; try again in a moment"}
	case !ack.OK:
		// Only a closed code: the robot is not trusted, and its ack could carry anything.
		return &consoleError{status: http.StatusBadGateway, code: api.CodeRobotRefused, msg: "the robot refused: " + link.ClosedAckCode(ack.Code)}
	}
	return nil
}

// quietTime refuses a join while the robot's room has asked for quiet ("be quiet for an
// hour"): joining would announce the caller in the room. The refusal is audited; the page
// shows the sentence.
func (c *Console) quietTime(device string, now time.Time) error {
	if c.d.QuietUntil == nil {
		return nil
	}
	until, quiet := c.d.QuietUntil(device)
	if !quiet {
		return nil
	}
	return &consoleError{status: http.StatusConflict, code: api.CodeQuietTime,
		msg: device + " is in quiet time for " + forAnother(until.Sub(now)) + ": the room asked not to be disturbed. Try again later."}
}

// quiet reports whether device is in quiet time now.
func (c *Console) quiet(device string) bool {
	if c.d.QuietUntil == nil {
		return false
	}
	_, q := c.d.QuietUntil(device)
	return q
}

// forAnother says how long is left, as a person would: "another 12 minutes", "about 3 hours".
func forAnother(d time.Duration) string {
	mins := int((d + time.Minute - 1) / time.Minute)
	switch {
	case mins <= 1:
		return "another minute"
	case mins < 90:
		return fmt.Sprintf("another %d minutes", mins)
	}
	return fmt.Sprintf("about %d hours", (mins+30)/60)
}
