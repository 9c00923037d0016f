package mcp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reachy-broker/reachy-broker/intents"
)

// maxQuestion bounds general.ask's question, the only free-text argument (the router's
// own transcript cap).
const maxQuestion = 2000

// tool is one intent as an MCP tool, with the scope a caller needs to see and call it.
type tool struct {
	def   *sdk.Tool
	scope string
}

// toolSet is every tool of one table. A table is immutable, so a set is built once per
// table and shared by every request until a reload swaps the table.
type toolSet struct {
	table *intents.Table
	tools []tool
}

// buildTools turns the allowlist into tools. What only the router produces (clarify, and
// unclear for a house sentence that fits no intent), what only the room may say (roomOnly)
// and intents this home cannot use (no room has their device, no people are listed) are
// left out.
func buildTools(t *intents.Table) *toolSet {
	set := &toolSet{table: t}
	for _, in := range t.Intents() {
		if in.Name == intents.IntentClarify || in.Name == intents.IntentUnclear || in.Unavailable || in.RoomVoiceOnly || roomOnly[in.Name] {
			continue
		}
		set.tools = append(set.tools, tool{def: toolDef(t, in), scope: in.Scope})
	}
	return set
}

// roomOnly are intents only the room's own voice may cause — hanging up a teleport call,
// switching privacy mode — never an agent, whatever scopes its token holds.
var roomOnly = map[string]bool{"session.end": true, "privacy.set": true}

// visible returns the tools a caller with scopes may see, in table order.
func (s *toolSet) visible(has func(string) bool) []*sdk.Tool {
	var out []*sdk.Tool
	for _, tl := range s.tools {
		if has(tl.scope) {
			out = append(out, tl.def)
		}
	}
	return out
}

func toolDef(t *intents.Table, in *intents.Intent) *sdk.Tool {
	schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: falseSchema()}
	for _, a := range in.Args {
		p := argSchema(t, a)
		if p == nil {
			continue // a vocabulary this home left empty: the argument cannot be given
		}
		schema.Properties[a.Name] = p
		schema.PropertyOrder = append(schema.PropertyOrder, a.Name)
		if a.Required && a.Default == "" {
			schema.Required = append(schema.Required, a.Name)
		}
	}
	readOnly := !in.Acts()
	ann := &sdk.ToolAnnotations{Title: in.Name, ReadOnlyHint: readOnly, OpenWorldHint: boolPtr(in.Kind == intents.KindAsk)}
	if !readOnly {
		// Writes set a state ("on"), never toggle: repeating one changes nothing more.
		ann.IdempotentHint = true
		ann.DestructiveHint = boolPtr(false)
	}
	return &sdk.Tool{Name: in.Name, Description: describe(in), InputSchema: schema, Annotations: ann}
}

func argSchema(t *intents.Table, a intents.ArgSpec) *jsonschema.Schema {
	s := &jsonschema.Schema{}
	switch a.Type {
	case intents.ArgTemperature:
		lo, hi := float64(t.Home.ACRange.Min), float64(t.Home.ACRange.Max)
		s.Type, s.Minimum, s.Maximum = "integer", &lo, &hi
		s.Description = fmt.Sprintf("degrees Celsius, %d to %d", t.Home.ACRange.Min, t.Home.ACRange.Max)
	case intents.ArgDuration:
		lo, hi := float64(intents.MinTimerSeconds), float64(intents.MaxTimerSeconds)
		s.Type, s.Minimum, s.Maximum = "integer", &lo, &hi
		s.Description = "whole seconds"
	case intents.ArgText:
		lo, hi := 1, maxQuestion
		s.Type, s.MinLength, s.MaxLength = "string", &lo, &hi
		s.Description = "the question, as a person would ask it; it reaches only the lean agent, which knows nothing about this family"
	default:
		s.Type = "string"
		for _, v := range t.AllowedValues(a) {
			s.Enum = append(s.Enum, v)
		}
		if len(s.Enum) == 0 {
			return nil
		}
		switch a.Type {
		case intents.ArgRoom:
			s.Description = `a room of this home; "here" is the calling device's own room, "all" every room`
		case intents.ArgState:
			s.Description = "the state to set (a write sets a state, it never toggles)"
		case intents.ArgPerson:
			s.Description = "a person of this home"
		case intents.ArgExpression:
			s.Description = "what the robot shows"
		case intents.ArgLabel:
			s.Description = "a timer label of this home"
		}
	}
	if a.Default != "" {
		s.Description += `; default "` + a.Default + `"`
	}
	return s
}

// describe is a tool's description: the intent's own, what kind of thing it does, and the
// table's example phrases (each one routes to this intent: the table tests itself at load).
func describe(in *intents.Intent) string {
	var b strings.Builder
	if in.Description != "" {
		b.WriteString(strings.TrimSpace(in.Description))
		if !strings.HasSuffix(b.String(), ".") {
			b.WriteString(".")
		}
		b.WriteString(" ")
	}
	switch in.Kind {
	case intents.KindRead, intents.KindMeta:
		b.WriteString("Reads only; changes nothing.")
	case intents.KindWrite:
		b.WriteString("Changes the house: it sets a state, never toggles, and is audited before it happens.")
	case intents.KindRobot:
		b.WriteString("Moves or silences the robot.")
	case intents.KindAsk:
		b.WriteString("A general question for a lean assistant that has no house, calendar, files or tools.")
	}
	if len(in.Examples) > 0 {
		b.WriteString(" Said to the robot as: ")
		for i, ex := range in.Examples {
			if i == 3 {
				break
			}
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(strconv.Quote(ex))
		}
		b.WriteString(".")
	}
	return b.String()
}

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

func boolPtr(v bool) *bool { return &v }
