package mcp

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/intents"
)

// TestToolSchemasComeFromTheVocabularies: every argument is an enum or a range taken from
// the home, except general.ask's question; no tool accepts extra properties; tools follow
// scopes, and an intent the home cannot use is no tool.
func TestToolSchemasComeFromTheVocabularies(t *testing.T) {
	table, err := intents.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	set := buildTools(table)
	schemas := map[string]map[string]any{}
	for _, tl := range set.tools {
		b, err := json.Marshal(tl.def.InputSchema)
		if err != nil {
			t.Fatalf("%s: %v", tl.def.Name, err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		schemas[tl.def.Name] = m
		if m["additionalProperties"] != false {
			t.Errorf("%s accepts extra properties: %s", tl.def.Name, b)
		}
		in, _ := table.Lookup(tl.def.Name)
		for _, a := range in.Args {
			p, ok := m["properties"].(map[string]any)[a.Name].(map[string]any)
			if !ok {
				if len(table.AllowedValues(a)) > 0 {
					t.Errorf("%s.%s is missing", tl.def.Name, a.Name)
				}
				continue
			}
			_, isEnum := p["enum"]
			_, isRange := p["maximum"]
			if a.Type != intents.ArgText && !isEnum && !isRange {
				t.Errorf("%s.%s is free: %v", tl.def.Name, a.Name, p)
			}
			if a.Type == intents.ArgText && tl.def.Name != intents.IntentGeneralAsk && tl.def.Name != intents.IntentDeepAsk {
				t.Errorf("%s has free text", tl.def.Name)
			}
		}
	}
	for _, name := range []string{intents.IntentClarify, intents.IntentUnclear} {
		if _, ok := schemas[name]; ok {
			t.Errorf("%s is a tool", name)
		}
	}
	dur := schemas["timer.start"]["properties"].(map[string]any)["duration"].(map[string]any)
	if dur["type"] != "integer" || dur["minimum"] != float64(intents.MinTimerSeconds) || dur["maximum"] != float64(intents.MaxTimerSeconds) {
		t.Errorf("timer duration: %v", dur)
	}
	temp := schemas["house.ac.set"]["properties"].(map[string]any)["temperature"].(map[string]any)
	if temp["type"] != "integer" || temp["minimum"] != float64(table.Home.ACRange.Min) || temp["maximum"] != float64(table.Home.ACRange.Max) {
		t.Errorf("temperature: %v", temp)
	}
	room, _ := json.Marshal(schemas["house.ac.set"]["properties"].(map[string]any)["room"])
	if !strings.Contains(string(room), `"bedroom"`) || strings.Contains(string(room), `"kitchen"`) {
		t.Errorf("house.ac.set rooms are not the rooms with AC: %s", room)
	}
	person, _ := json.Marshal(schemas["calendar.status"]["properties"].(map[string]any)["person"])
	if !strings.Contains(string(person), `"mom"`) || !strings.Contains(string(person), `"dad"`) {
		t.Errorf("calendar.status people: %s", person)
	}
	req, _ := json.Marshal(schemas["house.light.set"]["required"])
	if string(req) != `["room","state"]` {
		t.Errorf("house.light.set required: %s", req)
	}

	read := set.visible(func(s string) bool { return s == "" || s == intents.ScopeHouseRead })
	for _, d := range read {
		if in, _ := table.Lookup(d.Name); in.Acts() {
			t.Errorf("house:read sees %s", d.Name)
		}
	}

	// A home without people: calendar.status is unavailable, so it is no tool.
	cfg := regexp.MustCompile(`(?m)^  people:\n(?:    - .*\n)+`).ReplaceAllString(string(intents.DemoConfig()), "  people: []\n")
	noPeople, err := intents.Parse([]byte(cfg), "no-people.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if in, _ := noPeople.Lookup("calendar.status"); !in.Unavailable {
		t.Fatal("calendar.status is available without people")
	}
	for _, tl := range buildTools(noPeople).tools {
		if tl.def.Name == "calendar.status" {
			t.Error("an unavailable intent is a tool")
		}
	}
}
