package intents

import (
	"fmt"
	"slices"
	"strings"
)

// GuideEntry is one line of the command guide: what an intent does and how to say it.
type GuideEntry struct {
	Intent      string   `json:"intent"`
	Scope       string   `json:"scope,omitempty"`
	Description string   `json:"description"`
	Examples    []string `json:"examples"`

	kind    Kind
	handler string // the handler type: a broker that has none for it cannot do it
}

func buildGuide(t *Table) []GuideEntry {
	var out []GuideEntry
	for _, in := range t.intents {
		if len(in.Examples) == 0 || in.Name == IntentDeepAsk {
			continue
		}
		out = append(out, GuideEntry{Intent: in.Name, Scope: in.Scope, Description: in.Description, Examples: slices.Clone(in.Examples),
			kind: in.Kind, handler: in.Handler.Type})
	}
	return out
}

// Guide returns the command guide for a caller holding scopes (nil: everything). Every phrase
// in it is an example the table has routed to its own intent, so the guide can never
// advertise a sentence the router does not understand.
func (t *Table) Guide(scopes []string) []GuideEntry {
	var out []GuideEntry
	for _, g := range t.guide {
		if scopes == nil || g.Scope == "" || slices.Contains(scopes, g.Scope) {
			out = append(out, g)
		}
	}
	return out
}

// GuideOptions say what this broker can do for this caller: the guide offers nothing else.
type GuideOptions struct {
	Scopes []string // the caller's scopes (nil: every scope)
	// Available reports whether the broker has a handler of a type (a calendar, an agent, the
	// house); nil: every type.
	Available func(handler string) bool
	// Callable reports whether a person of the home takes calls (is an owner of the
	// console); nil: nobody is offered.
	Callable func(person string) bool
	// MaxChars is the reply length cap the guide must fit (redact's; DefaultGuideChars when 0).
	MaxChars int
}

// DefaultGuideChars is the cap a guide fits when none is given: redact's default.
const DefaultGuideChars = 400

// IntentHelpGames is the intent of "what games do you know": play.invite, the answer to any
// question about the games (GamesGuide).
const IntentHelpGames = "play.invite"

// SpokenGuide is the help reply for a caller holding scopes, as a broker with every handler
// and nobody to call says it.
func (t *Table) SpokenGuide(scopes []string) string {
	return t.SpokenGuideWith(GuideOptions{Scopes: scopes})
}

// SpokenGuideFor is SpokenGuideWith for scopes and the handler types available reports.
func (t *Table) SpokenGuideFor(scopes []string, available func(handler string) bool) string {
	return t.SpokenGuideWith(GuideOptions{Scopes: scopes, Available: available})
}

// SpokenGuideWith is the help reply ("what can you do"): a short first answer naming what
// this home can do for this caller — the lights and AC, the time, timers, calendars, games,
// calls to the people who take them, quiet time and privacy, the home's own intents,
// questions — and an offer of more ("say what games do you know"). It never offers what the
// broker has no handler for, nor a call nobody takes, and it always fits MaxChars, so the
// length cap never cuts it: the home's own intents are named while they fit, then counted.
func (t *Table) SpokenGuideWith(o GuideOptions) string {
	if o.MaxChars <= 0 {
		o.MaxChars = DefaultGuideChars
	}
	can := map[string]bool{}
	first := map[string]string{} // a category's first example, for the "say ..." line
	example := func(cat string, g GuideEntry) {
		if _, ok := first[cat]; !ok {
			first[cat] = g.Examples[0]
		}
	}
	var own []string // the home's own intents' first examples
	games := false
	for _, g := range t.Guide(o.Scopes) {
		if o.Available != nil && !o.Available(g.handler) {
			continue
		}
		in, _ := t.Lookup(g.Intent)
		switch {
		case g.Intent == IntentGeneralAsk:
			can["ask"] = true
		case g.Intent == "house.light.set":
			can["lights"] = true
			example("lights", g)
		case g.Intent == "house.light.get":
			can["lights?"] = true
			example("lights?", g)
		case g.Intent == "house.ac.set":
			can["ac"] = true
		case g.Intent == "house.ac.get":
			can["ac?"] = true
		case g.Intent == "time.now" || g.Intent == "date.today":
			can["time"] = true
			example("time", g)
		case strings.HasPrefix(g.Intent, "timer."):
			can["timers"] = true
			example("timers", g)
		case g.Intent == "calendar.status":
			can["calendar"] = true
		case g.Intent == "teleport.call":
			can["call"] = true
		case g.Intent == "robot.quiet" || g.Intent == "privacy.set":
			can["quiet"] = true
		case g.Intent == "robot.expression":
			can["dance"] = true
		case strings.HasPrefix(g.Intent, "play.") && g.kind != KindMeta:
			if g.Intent != "play.stop" {
				games = true
			}
		case in != nil && !in.Builtin && g.kind != KindMeta:
			own = append(own, fmt.Sprintf("%q", g.Examples[0]))
		}
	}
	var parts []string
	switch {
	case can["lights"] && can["ac"]:
		parts = append(parts, "switch the lights and the AC")
	case can["lights"]:
		parts = append(parts, "switch the lights")
	case can["ac"]:
		parts = append(parts, "set the AC")
	case can["lights?"] && can["ac?"]:
		parts = append(parts, "say if the lights and the AC are on")
	case can["lights?"]:
		parts = append(parts, "say if the lights are on")
	}
	var examples []string // say ...: one example of each of the first categories
	for _, cat := range []string{"lights", "lights?", "timers", "time"} {
		if ex, ok := first[cat]; ok && !(cat == "lights?" && can["lights"]) {
			examples = append(examples, ex)
		}
	}
	if can["timers"] {
		parts = append(parts, "set timers")
	}
	if can["time"] {
		parts = append(parts, "tell the time")
	}
	if can["calendar"] {
		parts = append(parts, "say if someone is busy")
	}
	if games {
		parts = append(parts, "play games")
	}
	if can["call"] && o.Callable != nil {
		var who []string
		for _, p := range t.Home.People {
			if o.Callable(p.Name) {
				who = append(who, spokenPerson(p.Name))
			}
		}
		if len(who) > 0 {
			parts = append(parts, "call "+spokenList(who, "or"))
		}
	}
	if can["dance"] {
		parts = append(parts, "dance")
	}
	if can["quiet"] {
		parts = append(parts, "go quiet or private")
	}
	if len(parts) == 0 && len(own) == 0 {
		if can["ask"] {
			return "Just ask me a question."
		}
		return "I can't do much here yet: ask whoever looks after me to set me up."
	}
	compose := func(own []string, more int, examples []string) string {
		s := ""
		if len(parts) > 0 {
			s = "I can " + spokenList(parts, "and") + "."
		}
		if len(examples) > 0 {
			s += " Say, for example, " + spokenList(examples, "or") + "."
		}
		switch {
		case len(own) > 0 && more > 0:
			s += " This home also knows " + spokenList(own, "and") + fmt.Sprintf(", and %d more.", more)
		case len(own) > 0:
			s += " This home also knows " + spokenList(own, "and") + "."
		case more > 0:
			s += fmt.Sprintf(" This home also knows %d commands of its own.", more)
		}
		if can["ask"] {
			s += " Or just ask me a question."
		}
		if games && t.hasIntent(IntentHelpGames) && (o.Scopes == nil || slices.Contains(o.Scopes, ScopePlay)) {
			s += " Say what games do you know, to hear the games."
		}
		return strings.TrimSpace(strings.ReplaceAll(s, `"`, ""))
	}
	// What fits the cap: the home's own intents named while they fit (then counted), then
	// fewer examples.
	for n := len(own); n >= 0; n-- {
		if s := compose(own[:n], len(own)-n, examples); len(s) <= o.MaxChars {
			return s
		}
	}
	for n := len(examples) - 1; n >= 0; n-- {
		if s := compose(nil, len(own), examples[:n]); len(s) <= o.MaxChars {
			return s
		}
	}
	return compose(nil, len(own), nil)[:o.MaxChars]
}

// GamesGuide is the answer to "what games do you know": the games this caller may play, by
// the names that start them.
func (t *Table) GamesGuide(o GuideOptions) string {
	var names []string
	for _, g := range t.Guide(o.Scopes) {
		if !strings.HasPrefix(g.Intent, "play.") || g.kind == KindMeta || g.Intent == "play.stop" || g.Intent == "play.answer" {
			continue
		}
		if o.Available != nil && !o.Available(g.handler) {
			continue
		}
		name := g.Examples[0]
		for _, p := range []string{"let's play ", "lets play ", "play "} {
			name = strings.TrimPrefix(name, p)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return "I don't know any games here yet."
	}
	return "I know " + spokenList(names, "and") + ". Say let's play, and the game's name; say stop the game to end one."
}

func (t *Table) hasIntent(name string) bool {
	_, ok := t.Lookup(name)
	return ok
}

// spokenPerson is a person's name as the robot says it: "dad" -> "Dad".
func spokenPerson(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
