// Package home carries out the house intents (house.light.get/set, house.ac.get/set) against
// a Backend: the in-memory demo house here, Home Assistant or MQTT when configured. Writes
// set a state ("on"), never toggle; "all" fans out in parallel and reports partial failure
// truthfully; replies are short and spoken-friendly.
//
// It must never decide which intent runs (the router does), never touch a device the intent
// did not name, and never do I/O of its own: backends are injected.
package home

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/reachy-broker/reachy-broker/intents"
)

// Device is one controllable thing: a kind of device in a room.
type Device struct {
	Room string // canonical room name
	Kind string // "light" or "ac"
}

// State is a device's state. Temperature is the AC set point (0: unknown or not an AC).
type State struct {
	On          bool
	Temperature int
	// Stale marks a state read from a cache that the device has not confirmed lately (the
	// hub is disconnected, or the reading is older than its freshness window): it is said
	// as "last I heard, ...", never as fact.
	Stale bool
}

// Backend reads and sets device states. Set must be idempotent: it sets, never toggles.
type Backend interface {
	Get(ctx context.Context, d Device) (State, error)
	Set(ctx context.Context, d Device, s State) error
}

// Handler is the intents.Handler for the house intents of one home.
type Handler struct {
	Backend Backend
	Kind    string // "light" or "ac"
}

// Handle reads or writes, depending on the intent's kind.
func (h Handler) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	rooms := h.rooms(c)
	if len(rooms) == 0 {
		return intents.Answer{Reply: fmt.Sprintf("There is no %s I can reach.", h.word(false)), Expression: intents.ExpressionSorry}, nil
	}
	if c.Intent.Kind == intents.KindWrite {
		return h.set(ctx, c, rooms)
	}
	return h.get(ctx, rooms)
}

func (h Handler) rooms(c intents.Call) []string {
	room := c.Args["room"]
	if room != "all" {
		return []string{room}
	}
	var out []string
	for _, r := range c.Table.Home.Rooms {
		if slices.Contains(r.Devices, h.Kind) {
			out = append(out, r.Name)
		}
	}
	return out
}

func (h Handler) word(plural bool) string {
	if h.Kind == "ac" {
		if plural {
			return "air conditioners"
		}
		return "AC"
	}
	if plural {
		return "lights"
	}
	return "light"
}

type result struct {
	room  string
	state State
	err   error
}

// each runs fn for every room in parallel, within ctx.
func each(ctx context.Context, rooms []string, fn func(ctx context.Context, room string) (State, error)) []result {
	out := make([]result, len(rooms))
	var wg sync.WaitGroup
	for i, r := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := fn(ctx, r)
			out[i] = result{room: r, state: s, err: err}
		}()
	}
	wg.Wait()
	return out
}

func (h Handler) set(ctx context.Context, c intents.Call, rooms []string) (intents.Answer, error) {
	args, err := h.CheckArgs(c.Intent, c.Args) // the broker checked already; never guess
	if err != nil {
		return intents.Answer{}, err
	}
	want := State{On: args["state"] == "on"}
	if t := args["temperature"]; t != "" {
		want.Temperature, _ = strconv.Atoi(t)
	}
	res := each(ctx, rooms, func(ctx context.Context, room string) (State, error) {
		return want, h.Backend.Set(ctx, Device{Room: room, Kind: h.Kind}, want)
	})
	res, missing := splitMissing(res)
	if len(res) == 0 {
		return h.notSetUp(missing), nil
	}
	rooms = roomsOf(res)
	var failed []string
	for _, r := range res {
		if r.err != nil {
			failed = append(failed, r.room)
		}
	}
	var unknown []string // sent, never confirmed: they may have landed
	for _, r := range res {
		if r.err != nil && Unknown(r.err) {
			unknown = append(unknown, r.room)
		}
	}
	if err := ctx.Err(); err != nil && len(failed) == len(res) && len(unknown) == 0 {
		return intents.Answer{}, err
	}
	a, err := h.setReply(want, rooms, failed, unknown)
	switch {
	case err != nil:
	case len(missing) > 0:
		a.Reply += " " + h.notSetUp(missing).Reply
		a.Outcome = intents.OutcomePartial
		if len(failed) == len(rooms) && len(unknown) == 0 {
			a.Outcome = intents.OutcomeFailed
		}
	case len(failed) == 0:
	case len(unknown) > 0 && len(failed) == len(rooms):
		a.Outcome = intents.OutcomeUnknown
	case len(failed) == len(rooms):
		a.Outcome = intents.OutcomeFailed
	default:
		a.Outcome = intents.OutcomePartial
	}
	return a, err
}

// ReplyUnknown is said for a write that was sent but never confirmed (docs/home.md): it may
// have happened, and it is not sent again.
const ReplyUnknown = "Sorry, the house didn't answer in time, so I can't tell whether that worked."

// setReply says what a write did. failed are the rooms whose write did not succeed; unknown
// (a subset of failed) those whose write was sent and never confirmed, which are never said
// as "isn't answering": they may have happened.
func (h Handler) setReply(want State, rooms, failed, unknown []string) (intents.Answer, error) {
	what := "on"
	if !want.On {
		what = "off"
	}
	switch {
	case len(rooms) == 1 && len(failed) == 0:
		if want.Temperature > 0 {
			return intents.Answer{Reply: fmt.Sprintf("Okay, the %s %s is set to %d degrees.", rooms[0], h.word(false), want.Temperature), Expression: intents.ExpressionHappy}, nil
		}
		return intents.Answer{Reply: fmt.Sprintf("Okay, the %s %s is %s.", rooms[0], h.word(false), what), Expression: intents.ExpressionHappy}, nil
	case len(failed) == len(rooms) && len(unknown) > 0:
		return intents.Answer{Reply: ReplyUnknown, Expression: intents.ExpressionSorry}, nil
	case len(rooms) == 1:
		return intents.Answer{Reply: fmt.Sprintf("The %s %s isn't answering right now.", rooms[0], h.word(false)), Expression: intents.ExpressionSorry}, nil
	case len(failed) == 0:
		return intents.Answer{Reply: fmt.Sprintf("Okay, all %s %s are %s.", number(len(rooms)), h.word(true), what), Expression: intents.ExpressionHappy}, nil
	case len(failed) == len(rooms):
		return intents.Answer{Reply: fmt.Sprintf("None of the %s are answering right now.", h.word(true)), Expression: intents.ExpressionSorry}, nil
	}
	verb := "turned " + what
	if want.Temperature > 0 {
		verb = fmt.Sprintf("set to %d degrees", want.Temperature)
	}
	var notAnswering []string
	for _, r := range failed {
		if !slices.Contains(unknown, r) {
			notAnswering = append(notAnswering, r)
		}
	}
	var why []string
	if len(notAnswering) > 0 {
		why = append(why, fmt.Sprintf("the %s %s didn't answer", joinAnd(notAnswering), h.word(len(notAnswering) > 1)))
	}
	if len(unknown) > 0 {
		why = append(why, fmt.Sprintf("the house didn't answer in time for the %s %s, so I can't tell whether that worked", joinAnd(unknown), h.word(len(unknown) > 1)))
	}
	return intents.Answer{Reply: fmt.Sprintf("I %s %s of %s %s; %s.", verb, number(len(rooms)-len(failed)), number(len(rooms)), h.word(true),
		strings.Join(why, ", and ")), Expression: intents.ExpressionSorry}, nil
}

func (h Handler) get(ctx context.Context, rooms []string) (intents.Answer, error) {
	res := each(ctx, rooms, func(ctx context.Context, room string) (State, error) {
		return h.Backend.Get(ctx, Device{Room: room, Kind: h.Kind})
	})
	res, missing := splitMissing(res)
	if len(res) == 0 {
		return h.notSetUp(missing), nil
	}
	if len(missing) > 0 {
		a, err := h.read(ctx, res)
		if err == nil {
			a.Reply += " " + h.notSetUp(missing).Reply
			if a.Outcome == "" {
				a.Outcome = intents.OutcomePartial
			}
		}
		return a, err
	}
	return h.read(ctx, res)
}

// splitMissing takes out the rooms whose device the configuration does not connect.
func splitMissing(res []result) (kept []result, missing []string) {
	for _, r := range res {
		if errors.Is(r.err, ErrNoSuchDevice) {
			missing = append(missing, r.room)
		} else {
			kept = append(kept, r)
		}
	}
	return kept, missing
}

func roomsOf(res []result) []string {
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = r.room
	}
	return out
}

// notSetUp says that the rooms' devices are not set up: the home has them, the configuration
// connects them to nothing (house.devices). Nothing was tried.
func (h Handler) notSetUp(rooms []string) intents.Answer {
	verb := "isn't"
	if len(rooms) > 1 {
		verb = "aren't"
	}
	return intents.Answer{Reply: fmt.Sprintf("The %s %s %s set up.", joinAnd(rooms), h.word(len(rooms) > 1), verb),
		Expression: intents.ExpressionSorry, Outcome: intents.OutcomeFailed, Code: intents.CodeNotConfigured}
}

// read says what the rooms' devices reported.
func (h Handler) read(ctx context.Context, res []result) (intents.Answer, error) {
	if len(res) == 1 {
		r := res[0]
		if r.err != nil {
			if ctx.Err() != nil {
				return intents.Answer{}, ctx.Err()
			}
			return intents.Answer{Reply: fmt.Sprintf("The %s %s isn't answering right now.", r.room, h.word(false)), Expression: intents.ExpressionSorry,
				Outcome: intents.OutcomeFailed}, nil
		}
		return intents.Answer{Reply: said(r.state, describe(r.room, h, r.state)), Expression: intents.ExpressionNeutral}, nil
	}
	var on, failed []string
	for _, r := range res {
		switch {
		case r.err != nil:
			failed = append(failed, r.room)
		case r.state.On:
			on = append(on, r.room)
		}
	}
	var parts []string
	switch {
	case len(on) == 0 && len(failed) == 0:
		parts = append(parts, fmt.Sprintf("All the %s are off.", h.word(true)))
	case len(on) == len(res):
		parts = append(parts, fmt.Sprintf("All the %s are on.", h.word(true)))
	case len(on) == 1:
		parts = append(parts, fmt.Sprintf("Only the %s %s is on.", on[0], h.word(false)))
	case len(on) > 1:
		parts = append(parts, fmt.Sprintf("The %s %s are on.", joinAnd(on), h.word(true)))
	default:
		parts = append(parts, fmt.Sprintf("None of the %s I could check are on.", h.word(true)))
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf("The %s %s didn't answer.", joinAnd(failed), h.word(len(failed) > 1)))
	}
	reply := strings.Join(parts, " ")
	for _, r := range res {
		if r.err == nil && r.state.Stale {
			reply = said(r.state, reply)
			break
		}
	}
	a := intents.Answer{Reply: reply, Expression: intents.ExpressionNeutral}
	switch {
	case len(failed) == len(res):
		a.Outcome = intents.OutcomeFailed
	case len(failed) > 0:
		a.Outcome = intents.OutcomePartial
	}
	return a, nil
}

// said introduces a reading from an old or disconnected cache as what the device last
// said, not what it says now.
func said(s State, sentence string) string {
	if !s.Stale || sentence == "" {
		return sentence
	}
	return "Last I heard, " + strings.ToLower(sentence[:1]) + sentence[1:]
}

// ReadBack says what the devices a write named are now, for a retried write whose outcome
// is not known ("the kitchen light is on now"). It reads the devices, never a cache.
func (h Handler) ReadBack(ctx context.Context, c intents.Call) (intents.Answer, error) {
	rooms := h.rooms(c)
	if len(rooms) == 0 {
		return intents.Answer{}, fmt.Errorf("no %s to read back", h.word(false))
	}
	ctx = Fresh(ctx)
	a, err := h.get(ctx, rooms)
	if err != nil || a.Outcome != "" {
		return intents.Answer{}, fmt.Errorf("read-back: %v", err)
	}
	a.Reply = strings.TrimSuffix(a.Reply, ".") + " now."
	return a, nil
}

func describe(room string, h Handler, s State) string {
	if !s.On {
		return fmt.Sprintf("The %s %s is off.", room, h.word(false))
	}
	if h.Kind == "ac" && s.Temperature > 0 {
		return fmt.Sprintf("The %s AC is on, set to %d degrees.", room, s.Temperature)
	}
	return fmt.Sprintf("The %s %s is on.", room, h.word(false))
}

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

func number(n int) string {
	if n >= 0 && n < len(numberWords) {
		return numberWords[n]
	}
	return strconv.Itoa(n)
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Memory is an in-memory house: the demo home's devices, for dev mode and tests.
type Memory struct {
	mu     sync.Mutex
	states map[Device]State
	sets   map[Device]int
}

// NewMemory returns a house with every device off.
func NewMemory() *Memory { return &Memory{states: map[Device]State{}, sets: map[Device]int{}} }

// Get returns the device's state.
func (m *Memory) Get(ctx context.Context, d Device) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.states[d], ctx.Err()
}

// Set stores the state.
func (m *Memory) Set(ctx context.Context, d Device, s State) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.Temperature == 0 {
		s.Temperature = m.states[d].Temperature
	}
	m.states[d] = s
	m.sets[d]++
	return nil
}

// Sets counts the writes a device received (tests use it to prove "exactly once").
func (m *Memory) Sets(d Device) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sets[d]
}
