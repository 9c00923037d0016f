package timers

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Link sends typed actions to a robot over its link and waits for the robot's ack. The
// broker's link registry implements it.
type Link interface {
	// Send delivers m to the robot named device and returns its ack. An error means the
	// action was not delivered (no link, or no ack in time).
	Send(ctx context.Context, device string, m api.LinkMessage) (api.LinkAckBody, error)
	// Connected lists the robots whose link is up.
	Connected() []string
}

// Settings are the ringing rules (the broker config's timers section).
type Settings struct {
	Every      time.Duration // between rings of one timer; default 30 s
	Rings      int           // rings at most, the first included; default 3
	Grace      time.Duration // a timer that came due while the broker was down still rings this late; default 15 min
	Retry      time.Duration // a first ring no robot took is tried again this often; default 2 s
	LateAfter  time.Duration // a first ring this late says when the timer went off; default 10 s
	Expression string        // the robot's expression with each ring; default "surprised"
	MaxPerRoom int           // live timers per room; default 20
	Send       time.Duration // how long to wait for a robot's ack; default 5 s
	// NoRobotWait is how long a due timer waits for a robot of its place to link when none
	// is linked; then it is let go, audited as missed (no_robot), and never rings later on a
	// robot that links afterwards. Default 1 min.
	NoRobotWait time.Duration
}

func (s *Settings) defaults() {
	def := func(p *time.Duration, v time.Duration) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&s.Every, 30*time.Second)
	def(&s.Grace, 15*time.Minute)
	def(&s.Retry, 2*time.Second)
	def(&s.LateAfter, 10*time.Second)
	def(&s.Send, 5*time.Second)
	def(&s.NoRobotWait, time.Minute)
	if s.Rings <= 0 {
		s.Rings = 3
	}
	if s.MaxPerRoom <= 0 {
		s.MaxPerRoom = 20
	}
	if s.Expression == "" {
		s.Expression = "surprised"
	}
}

// Deps are what a Service is built from.
type Deps struct {
	DB       *sql.DB
	Clock    Clock              // nil: the wall clock
	Link     Link               // nil: nothing rings until SetLink
	Synth    speech.Synthesizer // nil: rings carry no speech (the hub's chime only)
	Redact   func(string) (string, error)
	Audit    func(context.Context, Record) error // required: no ring without its record
	RoomOf   func(device string) string          // a device's configured room
	FollowUp func(device string)                 // opens the device's follow-up window (say "stop" without the wake phrase)
	// Robots lists the robots the broker knows (configured, or linked since start): a timer
	// set in a place none of them is in is answered with a warning that no robot can ring
	// it. nil: only linked robots count.
	Robots func() []string
	// Quiet reports whether a robot is in quiet time: a timer's repeated rings are its chime
	// alone there (the first ring keeps its sentence). nil: no robot is ever quiet.
	Quiet func(device string) bool
	// ForgetEarlier lets every timer of an earlier run go at Open (audited missed,
	// earlier_run) instead of resuming it: a dev broker on its default state directory, so a
	// tour's three-second timer never rings in a later run. A state directory named on
	// purpose (--state-dir) keeps them.
	ForgetEarlier bool
	Settings      Settings
	Logger        *slog.Logger
}

// Service holds the live timers and rings them. Create it with Open and run Run once.
type Service struct {
	d     Deps
	set   Settings
	clock Clock
	st    *store
	log   *slog.Logger
	wake  chan struct{}

	mu          sync.Mutex
	live        map[string]*Timer
	link        Link
	dirty       map[string]bool      // places whose robots need a fresh copy of their pending timers
	voices      map[string][]byte    // synthesized ring sentences by text
	outboxes    map[string]*outbox   // each robot's deliveries not yet made, by device
	inflight    map[string]*attempt  // the ring of each timer that is on its way, by timer ID
	base        context.Context      // the context deliveries run in (Run's); nil before Run
	stopped     bool                 // Run has returned: nothing more is delivered
	cp          checkpoint           // the clock checkpoint last saved
	noRobot     map[string]time.Time // due timers with no robot linked to ring them: since when
	missed      []Missed             // the newest timers let go without ringing (status.go)
	missedTotal uint64               // timers let go without ringing since start

	deliveries sync.WaitGroup // running outbox workers
}

// ErrFull is returned by Start when a room has as many timers as it may.
var ErrFull = errors.New("too many timers")

// Open loads the live timers from the state database (creating the table if needed). What
// each timer had left is carried across the restart on the boot clock (see resume), so a
// wall clock that was stepped while the broker was down neither drops a timer as missed nor
// rings it early.
func Open(ctx context.Context, d Deps) (*Service, error) {
	if d.DB == nil || d.Audit == nil {
		return nil, errors.New("timers: a database and an audit log are required")
	}
	if d.Clock == nil {
		d.Clock = SystemClock{}
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.RoomOf == nil {
		d.RoomOf = func(string) string { return "" }
	}
	d.Settings.defaults()
	st, err := openStore(ctx, d.DB)
	if err != nil {
		return nil, err
	}
	ts, err := st.load(ctx)
	if err != nil {
		return nil, err
	}
	s := &Service{d: d, set: d.Settings, clock: d.Clock, st: st, log: d.Logger, wake: make(chan struct{}, 1),
		live: map[string]*Timer{}, link: d.Link, dirty: map[string]bool{}, voices: map[string][]byte{},
		outboxes: map[string]*outbox{}, inflight: map[string]*attempt{}, noRobot: map[string]time.Time{}}
	if err := s.resume(ctx, ts); err != nil {
		return nil, err
	}
	for _, t := range ts {
		s.live[t.ID] = t
		s.dirty[t.place()] = true
	}
	if d.ForgetEarlier && len(ts) > 0 {
		s.log.Info("dev broker on its default state directory: timers of an earlier run are let go, not rung (name the directory with --state-dir to keep them)",
			"count", len(ts))
		now := s.clock.Now()
		for _, t := range ts {
			s.miss(ctx, t, MissedEarlier, now)
		}
		return s, nil
	}
	if len(ts) > 0 {
		s.log.Info("timers kept across the restart", "count", len(ts))
	}
	return s, nil
}

// SetLink attaches the robot link (when it is built after the service).
func (s *Service) SetLink(l Link) {
	s.mu.Lock()
	s.link = l
	for _, t := range s.live {
		s.dirty[t.place()] = true
	}
	s.mu.Unlock()
	s.poke()
}

func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "t-" + hex.EncodeToString(b)
}

// Start sets a timer for the device (in its room). The row is durable before Start returns.
func (s *Service) Start(ctx context.Context, device, room, label string, d time.Duration) (*Timer, error) {
	now := s.clock.Now()
	t := &Timer{ID: newID(), Device: device, Room: room, Label: label, Duration: d, Created: now, Due: now.Add(d), NextRing: now.Add(d), sched: now.Add(d)}
	s.mu.Lock()
	n := 0
	for _, o := range s.live {
		if o.place() == t.place() {
			n++
		}
	}
	if n >= s.set.MaxPerRoom {
		s.mu.Unlock()
		return nil, ErrFull
	}
	// The insert happens under the lock so that the count cannot be passed by a racing Start.
	if err := s.st.insert(ctx, t, now); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.live[t.ID] = t
	s.dirty[t.place()] = true
	s.mu.Unlock()
	s.poke()
	c := *t
	return &c, nil
}

// List returns the live timers of a device's place, soonest first.
func (s *Service) List(device, room string) []Timer {
	p := placeOf(device, room)
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Timer
	for _, t := range s.live {
		if t.place() == p {
			out = append(out, *t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Due.Equal(out[j].Due) {
			return out[i].ID < out[j].ID
		}
		return out[i].Due.Before(out[j].Due)
	})
	return out
}

// Cancel ends the timers with these IDs (pending or ringing); it returns how many it ended.
func (s *Service) Cancel(ctx context.Context, ids ...string) (int, error) {
	return s.end(ctx, "cancelled", ids...)
}

// end deletes live timers and tells their robots. The records still open of a timer's ring
// (tried, not delivered) are settled first, unless a ring of it is on its way (its settle
// does it).
func (s *Service) end(ctx context.Context, why string, ids ...string) (int, error) {
	s.mu.Lock()
	var closing []Timer
	for _, id := range ids {
		if t, ok := s.live[id]; ok && len(t.open) > 0 && s.inflight[id] == nil {
			closing = append(closing, *t)
		}
	}
	s.mu.Unlock()
	for _, t := range closing {
		s.closeRing(ctx, &t, t.Rings+1, openOf(&t), "error", "not_delivered")
	}
	s.mu.Lock()
	var gone []string
	for _, id := range ids {
		if _, ok := s.live[id]; ok {
			gone = append(gone, id)
		}
	}
	if len(gone) == 0 {
		s.mu.Unlock()
		return 0, nil
	}
	if err := s.st.delete(ctx, gone...); err != nil {
		s.mu.Unlock()
		return 0, err
	}
	for _, id := range gone {
		s.dirty[s.live[id].place()] = true
		delete(s.live, id)
		delete(s.noRobot, id)
	}
	s.mu.Unlock()
	s.log.Debug("timers ended", "why", why, "count", len(gone))
	s.poke()
	return len(gone), nil
}

// Silence stops the ringing timers of a device's place ("stop", "okay"). It returns how
// many it stopped.
func (s *Service) Silence(ctx context.Context, device string) (int, error) {
	p := placeOf(device, s.d.RoomOf(device))
	s.mu.Lock()
	var ids []string
	for _, t := range s.live {
		if (t.Rings > 0 || s.inflight[t.ID] != nil) && t.place() == p {
			ids = append(ids, t.ID)
		}
	}
	s.mu.Unlock()
	return s.end(ctx, "acknowledged", ids...)
}

// HubConnected sends a robot whose link just came up its place's pending timers (through
// the robot's own outbox: a slow robot delays nobody else).
func (s *Service) HubConnected(ctx context.Context, device string) {
	s.mu.Lock()
	s.enqueue(ctx, device, func(ob *outbox) { ob.copy = true })
	s.mu.Unlock()
}

// HubRang records the timers a robot rang itself while the broker was unreachable: they
// are done and are never rung again by the broker.
func (s *Service) HubRang(ctx context.Context, device string, ids []string) error {
	p := placeOf(device, s.d.RoomOf(device))
	s.mu.Lock()
	var mine []string
	var rang []Timer
	for _, id := range ids {
		if t, ok := s.live[id]; ok && t.place() == p {
			mine = append(mine, id)
			rang = append(rang, *t)
		}
	}
	s.mu.Unlock()
	// The hub's ring is the timer's next ring, rung there: the same act (and record) as the
	// broker's ring of it, so a report repeated after a restart, or a ring of the broker the
	// hub answered already_rang, is still one record.
	for _, t := range rang {
		s.settleRecord(ctx, s.ringRecord(device, &t, t.Rings+1, "ok", "rang_on_hub"))
	}
	_, err := s.end(ctx, "rang on the hub", mine...)
	return err
}

// HubStopped: someone at the robot said "stop" while it rang.
func (s *Service) HubStopped(ctx context.Context, device string) {
	if _, err := s.Silence(ctx, device); err != nil {
		s.log.Warn("stopping a ringing timer", "err", err)
	}
}

// Pending is how many timers are live (for metrics and tests).
func (s *Service) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// Run is the scheduler: one goroutine that sleeps until the next timer needs it (or a change
// wakes it) and hands what is due to the robots' outboxes; one that then keeps the robots'
// copies fresh and synthesizes ring sentences ahead of time; one that saves the clock
// checkpoint every checkpointEvery; and one outbox worker per robot with something to
// deliver — so that neither a slow or silent robot nor speech synthesis delays another
// robot's ring. It returns when ctx ends, after the deliveries under way have given up.
func (s *Service) Run(ctx context.Context) {
	s.mu.Lock()
	s.base = ctx
	s.mu.Unlock()
	side := make(chan struct{}, 1)
	var loops sync.WaitGroup
	loops.Add(2)
	go func() {
		defer loops.Done()
		for {
			// After the scheduler's pass, so that at start-up the rings due go out first.
			select {
			case <-ctx.Done():
				return
			case <-side:
			}
			s.syncDirty(ctx)
			s.warm(ctx)
		}
	}()
	go func() {
		defer loops.Done()
		for {
			tick, stop := s.clock.After(checkpointEvery)
			select {
			case <-ctx.Done():
				stop()
				return
			case <-tick:
				s.checkpoint(ctx)
			}
		}
	}()
	defer func() {
		loops.Wait()
		s.mu.Lock()
		s.stopped = true // no worker starts from here on
		s.mu.Unlock()
		s.deliveries.Wait()
	}()
	for {
		s.ringDue(ctx)
		select {
		case side <- struct{}{}:
		default:
		}
		wait := time.Hour
		now := s.clock.Now()
		s.mu.Lock()
		for _, t := range s.live {
			if s.inflight[t.ID] == nil {
				wait = min(wait, t.NextRing.Sub(now))
			}
		}
		s.mu.Unlock()
		ch, stop := s.clock.After(wait)
		select {
		case <-ctx.Done():
			stop()
			return
		case <-ch:
		case <-s.wake:
			stop()
		}
	}
}

// Tick does at once what Run does over time: it rings every timer whose time has come and
// waits for the robots' acks, sends changed copies to the robots and synthesizes the coming
// ring sentences. It is for tests and tools; do not call it while Run runs.
func (s *Service) Tick(ctx context.Context) {
	s.ringDue(ctx)
	s.deliveries.Wait()
	s.syncDirty(ctx)
	s.deliveries.Wait()
	s.warm(ctx)
}

func (s *Service) ringDue(ctx context.Context) {
	now := s.clock.Now()
	s.mu.Lock()
	var due []*Timer
	for _, t := range s.live {
		if s.inflight[t.ID] == nil && !t.NextRing.After(now) {
			c := *t
			due = append(due, &c)
		}
	}
	s.mu.Unlock()
	sort.Slice(due, func(i, j int) bool { return due[i].NextRing.Before(due[j].NextRing) })
	for _, t := range due {
		s.ring(ctx, t, now)
	}
}

// targets are the robots a timer rings on: the device it was set on when that robot's link is
// up, otherwise the connected robots of its room.
func (s *Service) targets(t *Timer) []string {
	s.mu.Lock()
	l := s.link
	s.mu.Unlock()
	if l == nil {
		return nil
	}
	conn := l.Connected()
	if slices.Contains(conn, t.Device) {
		return []string{t.Device}
	}
	var out []string
	for _, dev := range conn {
		if placeOf(dev, s.d.RoomOf(dev)) == t.place() {
			out = append(out, dev)
		}
	}
	sort.Strings(out)
	return out
}
