package link

import (
	"log/slog"
	"sync"
	"time"
)

// subscriber receives events in order on its own goroutine, so a callback may call Send
// (whose ack arrives on the link's reader) without deadlocking it.
type subscriber struct {
	fn   func(Event)
	ch   chan Event
	once sync.Once
	quit chan struct{}
}

func (s *subscriber) run() {
	for {
		select {
		case e := <-s.ch:
			s.fn(e)
		case <-s.quit:
			return
		}
	}
}

func (s *subscriber) stop() { s.once.Do(func() { close(s.quit) }) }

// Subscribe calls fn for every event of every link, in order, on a goroutine of its own
// (fn may call Send). A subscriber that falls 256 events behind loses the newest ones, with
// a warning. Call the returned function to stop.
//
// To push something to a robot whenever its link comes up (pending timers, a session's
// presence), watch for EventUp.
func (r *Registry) Subscribe(fn func(Event)) (unsubscribe func()) {
	s := &subscriber{fn: fn, ch: make(chan Event, 256), quit: make(chan struct{})}
	r.mu.Lock()
	id := r.nextID
	r.nextID++
	r.subs[id] = s
	r.mu.Unlock()
	go s.run()
	return func() {
		r.mu.Lock()
		delete(r.subs, id)
		r.mu.Unlock()
		s.stop()
	}
}

func (r *Registry) emit(e Event) {
	e.At = time.Now()
	r.mu.Lock()
	subs := make([]*subscriber, 0, len(r.subs))
	for _, s := range r.subs {
		subs = append(subs, s)
	}
	r.mu.Unlock()
	for _, s := range subs {
		select {
		case s.ch <- e:
		default:
			r.logs.Log(r.log, slog.LevelWarn, e.Device, "link: a subscriber is behind; event dropped", "kind", string(e.Kind))
		}
	}
}
