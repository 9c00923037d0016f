package intents

import (
	_ "embed"
	"regexp"
	"slices"
	"time"
)

// Kind says what an intent may do. Only write and robot intents act on the world.
type Kind string

// The kinds of intent.
const (
	KindRead  Kind = "read"  // reports state; never changes anything
	KindWrite Kind = "write" // changes the house
	KindAsk   Kind = "ask"   // free text to the lean agent
	KindRobot Kind = "robot" // moves or silences the robot
	KindMeta  Kind = "meta"  // greeting, help, clarify
)

// Scopes a device token can hold. What each intent needs is in its Scope field.
const (
	ScopeTurn         = "turn"
	ScopeIntent       = "intent"
	ScopeText         = "text"
	ScopeHouseRead    = "house:read"
	ScopeHouseWrite   = "house:write"
	ScopeCalendarRead = "calendar:read"
	ScopeAsk          = "ask"
	ScopeRobot        = "robot"
	ScopeTimer        = "timer"    // kitchen timers: start, ask, cancel
	ScopeLink         = "link"     // the hub's robot link
	ScopeAnnounce     = "announce" // speak an announcement through the robot
	ScopeMCP          = "mcp"      // this caller's intents as MCP tools
	ScopePlay         = "play"     // games (play.*): a robot holds it only if the owner grants it
)

// knownScopes lists every scope a token may carry.
var knownScopes = []string{ScopeTurn, ScopeIntent, ScopeText, ScopeHouseRead, ScopeHouseWrite, ScopeCalendarRead,
	ScopeAsk, ScopeRobot, ScopeTimer, ScopeLink, ScopeAnnounce, ScopeMCP, ScopePlay}

// KnownScopes returns every scope a device token may carry.
func KnownScopes() []string { return slices.Clone(knownScopes) }

// Names of intents the router itself produces.
const (
	IntentClarify    = "clarify"
	IntentGeneralAsk = "general.ask"
	IntentDeepAsk    = "general.ask.deep"
	IntentGreeting   = "greeting"
	// Small talk: said locally with a fitting reply, never acted on.
	IntentThanks    = "smalltalk.thanks"
	IntentGoodNight = "smalltalk.good_night"
	IntentGoodbye   = "smalltalk.goodbye"
	// IntentEmergency says the robot cannot call emergency services: use a phone.
	IntentEmergency = "help.emergency"
	IntentNone      = "none" // no wake phrase: nothing to do
	// IntentPlayAnswer is an answer inside a game in play: the broker's games claim it, no
	// pattern produces it and it is never called by name.
	IntentPlayAnswer = "play.answer"
)

// ArgType is the closed vocabulary an argument is drawn from.
type ArgType string

// Argument types.
const (
	ArgRoom        ArgType = "room"
	ArgState       ArgType = "state"
	ArgTemperature ArgType = "temperature"
	ArgPerson      ArgType = "person"
	ArgExpression  ArgType = "expression"
	ArgDuration    ArgType = "duration" // whole seconds, 1..86400, said as "ten minutes", "an hour and a half" ...
	ArgLabel       ArgType = "label"    // a timer label from the home's closed timer_labels list
	ArgTopic       ArgType = "topic"    // what an unclear sentence was about: light, ac, device, room, person
	ArgText        ArgType = "text"     // free text: only general.ask may have one
)

// ArgSpec declares one argument of an intent.
type ArgSpec struct {
	Name     string  `yaml:"name" json:"name"`
	Type     ArgType `yaml:"type" json:"type"`
	Device   string  `yaml:"device,omitempty" json:"device,omitempty"` // rooms must have this device
	Required bool    `yaml:"required,omitempty" json:"required,omitempty"`
	Default  string  `yaml:"default,omitempty" json:"default,omitempty"`
	// All lets a label argument take the value "all" ("cancel all timers").
	All bool `yaml:"all,omitempty" json:"all,omitempty"`
	// Unknown says what a sentence with a value outside the vocabulary does: "ask" (the
	// default) asks which one was meant; "drop" leaves the argument out (an optional label:
	// "set a banana timer" starts an unlabelled timer). A typed call is always refused.
	Unknown string `yaml:"unknown,omitempty" json:"-"`
}

// Binding ties an intent to the code that carries it out. Built-in intents use built-in types; intents from a config
// file may use only reply, home.service, webhook and robot.expression.
type Binding struct {
	Type       string            `yaml:"type" json:"type"`
	Deep       bool              `yaml:"deep,omitempty" json:"deep,omitempty"`
	Text       string            `yaml:"text,omitempty" json:"text,omitempty"`             // reply: the sentence, {arg} filled in
	Service    string            `yaml:"service,omitempty" json:"service,omitempty"`       // home.service: e.g. script.good_night
	Entity     string            `yaml:"entity,omitempty" json:"entity,omitempty"`         // home.service: optional entity id
	Topic      string            `yaml:"topic,omitempty" json:"topic,omitempty"`           // home.service over MQTT
	Payload    string            `yaml:"payload,omitempty" json:"payload,omitempty"`       // home.service over MQTT
	URL        string            `yaml:"url,omitempty" json:"url,omitempty"`               // webhook
	Timeout    string            `yaml:"timeout,omitempty" json:"timeout,omitempty"`       // webhook, e.g. 3s
	Expression string            `yaml:"expression,omitempty" json:"expression,omitempty"` // robot.expression
	Reply      string            `yaml:"reply,omitempty" json:"reply,omitempty"`           // what to say after a home.service/webhook call
	Extra      map[string]string `yaml:"data,omitempty" json:"data,omitempty"`             // home.service: service data
}

var customHandlerTypes = []string{"reply", "home.service", "webhook", "robot.expression"}

// Intent is one entry of the allowlist.
type Intent struct {
	Name        string    `json:"name"`
	Kind        Kind      `json:"kind"`
	Scope       string    `json:"scope,omitempty"`
	Description string    `json:"description,omitempty"`
	Args        []ArgSpec `json:"args,omitempty"`
	Examples    []string  `json:"examples,omitempty"`
	Handler     Binding   `json:"handler"`
	// Fallback is where a question or a negated command goes instead of this write.
	Fallback string `json:"fallback,omitempty"`
	Builtin  bool   `json:"builtin"`
	// Frame marks a built-in intent decided by the frame router (frame.go) instead of patterns.
	Frame bool `json:"frame,omitempty"`
	// Internal marks what only the router produces (clarify, unclear): never listed, never
	// called by name.
	Internal bool `json:"internal,omitempty"`
	// Unavailable marks a built-in intent this home cannot use (no room has its device, no
	// people are listed): it stays on the allowlist but has no examples and no guide entry.
	Unavailable bool `json:"unavailable,omitempty"`
	// RoomVoiceOnly marks an intent only the room may cause by voice (privacy.set): a robot's
	// spoken turn, or a clip it heard during a call. A typed utterance, a typed call, MCP and
	// the console are refused it, and it is never listed to a caller.
	RoomVoiceOnly bool `json:"room_voice_only,omitempty"`

	patterns []pattern
	where    string // file:line of the entry
	// frameRule names the frame router as the rule of a decision it made (shared, read-only).
	frameRule *Rule
}

// Arg returns the spec of the named argument.
func (in *Intent) Arg(name string) (ArgSpec, bool) {
	for _, a := range in.Args {
		if a.Name == name {
			return a, true
		}
	}
	return ArgSpec{}, false
}

// Patterns returns the source patterns, as written.
func (in *Intent) Patterns() []string {
	out := make([]string, len(in.patterns))
	for i, p := range in.patterns {
		out[i] = p.source
	}
	return out
}

// Acts reports whether the intent changes the world (the doctrine guards these).
func (in *Intent) Acts() bool { return in.Kind == KindWrite || in.Kind == KindRobot }

type pattern struct {
	source string
	re     *regexp.Regexp
	where  string // file:line
	groups []string
	filter prefilter
	gate   wordGate
	// durations: the pattern has a {duration} and is matched against the duration view of
	// the sentence (runs of duration words joined into one token).
	durations bool
}

// Room is a room of the home and the devices it has.
type Room struct {
	Name    string   `yaml:"name" json:"name"`
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
	Devices []string `yaml:"devices" json:"devices"`
	// Whose are the people whose room it is, by a person's name (any of their aliases then
	// serves) or by a word ("kids", "parents"): "mum's room", "mom and dad's room", "the
	// kids' bedroom" then name it, and so does "their light" in a sentence about them.
	Whose []string `yaml:"whose,omitempty" json:"whose,omitempty"`
}

// Person is a member of the household the calendar knows.
type Person struct {
	Name    string   `yaml:"name" json:"name"`
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
}

// Range is an inclusive integer range.
type Range struct {
	Min int `yaml:"min" json:"min"`
	Max int `yaml:"max" json:"max"`
}

// Home is the closed vocabulary of one household.
type Home struct {
	Timezone    string   `yaml:"timezone" json:"timezone"`
	DeviceRoom  string   `yaml:"device_room" json:"device_room"`
	WakePhrases []string `yaml:"wake_phrases" json:"wake_phrases"`
	// WakeFuzzy (default true) also accepts words that sound like the name of a wake phrase
	// the way whisper spells them ("hey richie" for "hey reachy"); see wake.go.
	WakeFuzzy *bool `yaml:"wake_fuzzy,omitempty" json:"wake_fuzzy,omitempty"`
	// WakeSpellings are extra spellings of the name accepted as they are ("reachee").
	WakeSpellings []string            `yaml:"wake_spellings,omitempty" json:"wake_spellings,omitempty"`
	ACRange       Range               `yaml:"ac_range" json:"ac_range"`
	Rooms         []Room              `yaml:"rooms" json:"rooms"`
	People        []Person            `yaml:"people" json:"people"`
	Expressions   map[string][]string `yaml:"expressions" json:"expressions"`
	// TimerLabels are the names a timer may carry ("the pasta timer"); empty means
	// DefaultTimerLabels(). A label outside the list never becomes free text.
	TimerLabels []string `yaml:"timer_labels" json:"timer_labels"`
	// Lexicon adds this home's words to the router's lexicons (intents/lexicon.yaml), by set
	// name: {game.simon: [simple simon], call.verbs: [bell]}. Words only, never patterns.
	Lexicon map[string][]string `yaml:"lexicon,omitempty" json:"lexicon,omitempty"`
}

var defaultTimerLabels = []string{"pasta", "eggs", "rice", "oven", "tea", "laundry", "homework", "bath", "bedtime", "pizza", "cookies", "nap"}

// DefaultTimerLabels returns the timer labels of a home that lists none.
func DefaultTimerLabels() []string { return slices.Clone(defaultTimerLabels) }

// Devices the built-in handlers know.
var knownDevices = []string{"light", "ac"}

//go:embed builtin.yaml
var builtinYAML []byte

//go:embed demo_home.yaml
var demoHomeYAML []byte

// Table is a loaded, self-tested intent table for one home. Immutable and safe to share.
type Table struct {
	Home    Home
	intents []*Intent // routing order: config intents, then built-ins
	// custom and builtins are the intents with patterns, in routing order.
	custom, builtins []*Intent
	// customIx and builtinIx index their patterns by what their gates admit (match_index.go).
	customIx, builtinIx *patternIndex
	byName              map[string]*Intent
	vocab               vocab
	guide               []GuideEntry
	zone                *time.Location // the home's time zone, loaded once when the table is built
	sound               soundAlike     // the table's words, for reading a small child's speech
	foreign             []foreignLanguage
	foreignMarkers      map[string]bool // every language's markers: most sentences hold none
}

// Location is the home's time zone (time.Local when the home names none).
func (t *Table) Location() *time.Location {
	if t.zone == nil {
		return time.Local
	}
	return t.zone
}

// Intents returns the intents in routing order.
func (t *Table) Intents() []*Intent { return slices.Clone(t.intents) }

// Lookup finds an intent by name.
func (t *Table) Lookup(name string) (*Intent, bool) {
	in, ok := t.byName[name]
	return in, ok
}
