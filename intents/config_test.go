package intents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodNight = `
intents:
  - name: routine.good_night
    kind: write
    scope: house:write
    description: the good night routine
    handler: {type: home.service, service: script.good_night, reply: "Good night. Sleep well."}
    patterns:
      - 'good night(?: everyone| reachy| jeeves)?'
      - '(?:start|run) the good night routine'
    examples:
      - good night
      - run the good night routine
`

func TestCustomIntentFromConfig(t *testing.T) {
	tb, err := Parse([]byte(goodNight), "home.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := tb.Route("Hey Jeeves, good night!", Context{})
	if d.Intent != "routine.good_night" || d.Kind != KindWrite || d.Scope != ScopeHouseWrite {
		t.Fatalf("%+v", d)
	}
	// The doctrine holds for custom writes too: no read to fall to, so a general question.
	if d := tb.Route("should I run the good night routine", Context{}); d.Kind == KindWrite {
		t.Fatalf("question actuated: %s", d.Intent)
	}
	if d := tb.Route("don't run the good night routine", Context{}); d.Kind == KindWrite {
		t.Fatalf("negation actuated: %s", d.Intent)
	}
	// The demo home is used when the file has no home section, and built-ins still route.
	if d := tb.Route("turn on the kitchen light", Context{}); d.Intent != "house.light.set" {
		t.Fatalf("built-in broken by a custom intent: %s", d.Intent)
	}
	if !strings.Contains(tb.SpokenGuide(nil), "good night") {
		t.Fatal("custom intent missing from the guide")
	}
}

func TestConfigErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"unknown key", "home:\n  rooms: []\n  colour: blue\n", "home.yaml:3"},
		{"unknown intent key", "intents:\n  - name: a.b\n    kind: read\n    scope: house:read\n    handler: {type: reply, text: hi}\n    patterns: ['x']\n    examples: ['x']\n    colour: blue\n", "home.yaml:8"},
		{"bad regex", "intents:\n  - name: a.b\n    kind: read\n    handler: {type: reply, text: hi}\n    patterns:\n      - 'ok'\n      - 'broken(('\n    examples: [ok]\n", "home.yaml:7"},
		{"unknown placeholder", "intents:\n  - name: a.b\n    kind: read\n    handler: {type: reply, text: hi}\n    patterns: ['hi {colour}']\n    examples: ['hi red']\n", "placeholder {colour}"},
		{"example routes elsewhere", "intents:\n  - name: a.b\n    kind: read\n    handler: {type: reply, text: hi}\n    patterns: ['hi there friend']\n    examples: ['what time is it']\n", `example "what time is it" of intent a.b routes to time.now`},
		{"custom handler type", "intents:\n  - name: a.b\n    kind: read\n    handler: {type: shell, text: hi}\n    patterns: ['x y z']\n    examples: ['x y z']\n", "handler type \"shell\""},
		{"write without house scope", "intents:\n  - name: a.b\n    kind: write\n    handler: {type: home.service, service: s.x}\n    patterns: ['x y z']\n    examples: ['x y z']\n", "needs scope house:write"},
		{"free text arg", "intents:\n  - name: a.b\n    kind: read\n    args: [{name: q, type: text}]\n    handler: {type: reply, text: hi}\n    patterns: ['x y z']\n    examples: ['x y z']\n", "free text"},
		{"builtin name reused", "intents:\n  - name: time.now\n    kind: read\n    handler: {type: reply, text: hi}\n    patterns: ['x y z']\n    examples: ['x y z']\n", "defined twice"},
		{"unknown device", "home:\n  rooms: [{name: kitchen, devices: [toaster]}]\n  expressions: {dance: [dance]}\n", "unknown device \"toaster\""},
		{"room and person share a name", "home:\n  rooms: [{name: kitchen, devices: [light]}]\n  people: [{name: kitchen}]\n  expressions: {dance: [dance]}\n", "names both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.yaml), "home.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLintFindsShadowedRule(t *testing.T) {
	// The second pattern can never win: the first matches everything it matches.
	cfg := `
intents:
  - name: fun.joke_time
    kind: read
    handler: {type: reply, text: "Knock knock."}
    patterns:
      - 'tell me a (?:funny |silly )?knock knock joke'
      - 'tell me a funny knock knock joke'
    examples:
      - tell me a knock knock joke
      - tell me a funny knock knock joke
`
	tb, err := Parse([]byte(cfg), "home.yaml")
	if err != nil {
		t.Fatal(err)
	}
	issues := tb.Lint()
	if len(issues) != 1 || !strings.Contains(issues[0].Message, "pattern 1") || !strings.Contains(issues[0].Where, "home.yaml:8") {
		t.Fatalf("lint: %+v", issues)
	}
	demoTable := demo(t)
	if issues := demoTable.Lint(); len(issues) != 0 {
		t.Fatalf("the built-in table has lint issues: %+v", issues)
	}
}

func TestReloadKeepsOldTableOnBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home.yaml")
	if err := os.WriteFile(path, []byte(goodNight), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewStore(path)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Table()
	os.WriteFile(path, []byte(strings.Replace(goodNight, "      - '(?:start|run)", "      - 'broken(('\n      - '(?:start|run)", 1)), 0o600)
	err = s.Reload()
	if err == nil || !strings.Contains(err.Error(), "kept the previous") {
		t.Fatalf("reload of a broken file: %v", err)
	}
	if s.Table() != before || s.Table().Route("good night", Context{}).Intent != "routine.good_night" {
		t.Fatal("broken reload replaced the table")
	}
	fixed := strings.ReplaceAll(goodNight, "      - good night\n", "      - good night\n      - nighty night\n")
	fixed = strings.ReplaceAll(fixed, "      - '(?:start|run)", "      - 'nighty night'\n      - '(?:start|run)")
	os.WriteFile(path, []byte(fixed), 0o600)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if s.Table().Route("nighty night", Context{}).Intent != "routine.good_night" {
		t.Fatal("good reload not applied")
	}
}

func TestBuiltinsAdaptToAnotherHome(t *testing.T) {
	cfg := `
home:
  device_room: den
  wake_phrases: [hey robot]
  rooms:
    - {name: den, devices: [light]}
    - {name: loft, aliases: [attic], devices: [light]}
`
	tb, err := Parse([]byte(cfg), "small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d := tb.Route("hey robot turn on the attic light", Context{}); d.Intent != "house.light.set" || d.Args["room"] != "loft" {
		t.Fatalf("%+v", d)
	}
	ac, _ := tb.Lookup("house.ac.set")
	cal, _ := tb.Lookup("calendar.status")
	if !ac.Unavailable || !cal.Unavailable {
		t.Fatal("intents this home cannot use are not marked unavailable")
	}
	guide := tb.SpokenGuide(nil)
	if strings.Contains(guide, " ac") || strings.Contains(guide, "busy") || !strings.Contains(guide, "turn on the den light") {
		t.Fatalf("guide for a home without AC or people: %s", guide)
	}
	if d := tb.Route("turn on the ac in the den", Context{}); d.Kind == KindWrite {
		t.Fatalf("AC write in a home without AC: %+v", d)
	}
	if issues := tb.Lint(); len(issues) != 0 {
		t.Fatalf("lint: %+v", issues)
	}
}
