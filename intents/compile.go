package intents

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func checkHome(h *Home, file string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: home: %s", file, fmt.Sprintf(format, args...))
	}
	if len(h.Rooms) == 0 {
		return bad("no rooms")
	}
	seen := map[string]string{}
	claim := func(word, owner string) error {
		w := normalizeVocab(word)
		if w == "" {
			return bad("empty name or alias in %s", owner)
		}
		if reservedRoomWords[w] {
			return bad("%q is reserved and cannot name a room or person", word)
		}
		if prev, ok := seen[w]; ok && prev != owner {
			return bad("%q names both %s and %s", word, prev, owner)
		}
		seen[w] = owner
		return nil
	}
	for _, r := range h.Rooms {
		for _, w := range append([]string{r.Name}, r.Aliases...) {
			if err := claim(w, "room "+r.Name); err != nil {
				return err
			}
		}
		for _, d := range r.Devices {
			if !slices.Contains(knownDevices, d) {
				return bad("room %s: unknown device %q (known: %s)", r.Name, d, strings.Join(knownDevices, ", "))
			}
		}
	}
	for _, p := range h.People {
		for _, w := range append([]string{p.Name}, p.Aliases...) {
			if err := claim(w, "person "+p.Name); err != nil {
				return err
			}
		}
	}
	if h.DeviceRoom != "" {
		if _, ok := findRoom(h.Rooms, h.DeviceRoom); !ok {
			return bad("device_room %q is not a room of the home", h.DeviceRoom)
		}
	}
	if h.ACRange == (Range{}) {
		h.ACRange = Range{Min: 16, Max: 30}
	}
	if h.ACRange.Min > h.ACRange.Max {
		return bad("ac_range min %d is above max %d", h.ACRange.Min, h.ACRange.Max)
	}
	if len(h.TimerLabels) == 0 {
		h.TimerLabels = DefaultTimerLabels()
	}
	labels := map[string]bool{}
	for i, l := range h.TimerLabels {
		w := normalizeVocab(l)
		switch {
		case w == "":
			return bad("timer_labels: empty label")
		case w == "all" || reservedRoomWords[w]:
			return bad("timer_labels: %q is reserved", l)
		case labels[w]:
			return bad("timer_labels: %q is listed twice", l)
		case len(strings.Fields(w)) > 3:
			return bad("timer_labels: %q is longer than three words", l)
		}
		labels[w] = true
		h.TimerLabels[i] = w
	}
	// The robot's built-in expressions are always there; a home may add its own words.
	merged := map[string][]string{}
	for k, v := range defaultExpressions {
		merged[k] = append([]string(nil), v...)
	}
	for k, v := range h.Expressions {
		merged[k] = append(merged[k], v...)
	}
	h.Expressions = merged
	return nil
}

// defaultExpressions are the expressions every robot has (the hub maps them to moves).
var defaultExpressions = map[string][]string{
	"dance": {"dance", "dancing", "boogie", "jig", "a jig", "a little jig", "a twirl"}, "nod": {"nod", "nod your head", "nodding"},
	"celebrate": {"celebrate", "celebration", "party"}, "happy": {"happy", "smile"}, "sad": {"sad"},
	"surprised": {"surprised", "surprise"}, "curious": {"curious"}, "sleepy": {"sleepy", "tired"},
}

// fillExamples puts the home's own words into a built-in intent's example templates.
func fillExamples(in *Intent, h Home) ([]string, bool) {
	fill := map[string]string{}
	for _, a := range in.Args {
		switch a.Type {
		case ArgRoom:
			for _, r := range h.Rooms {
				if a.Device == "" || slices.Contains(r.Devices, a.Device) {
					fill["{"+a.Name+"}"] = r.Name
					break
				}
			}
		case ArgPerson:
			if len(h.People) > 0 {
				fill["{"+a.Name+"}"] = h.People[0].Name
			}
		case ArgTemperature:
			fill["{"+a.Name+"}"] = strconv.Itoa((h.ACRange.Min + h.ACRange.Max) / 2)
		case ArgLabel:
			fill["{"+a.Name+"}"] = h.TimerLabels[0]
		}
	}
	var out []string
	for _, ex := range in.Examples {
		for k, v := range fill {
			ex = strings.ReplaceAll(ex, k, v)
		}
		if placeholderRE.MatchString(ex) {
			return nil, true // the home lacks what this intent needs
		}
		out = append(out, ex)
	}
	return out, false
}

func findRoom(rooms []Room, name string) (Room, bool) {
	n := normalizeVocab(name)
	for _, r := range rooms {
		if normalizeVocab(r.Name) == n {
			return r, true
		}
	}
	return Room{}, false
}

func compileIntent(y intentYAML, builtin bool, v vocab, file string) (*Intent, error) {
	at := fmt.Sprintf("%s:%d", file, y.line)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: intent %q: %s", at, y.Name, fmt.Sprintf(format, args...))
	}
	if !intentNameRE.MatchString(y.Name) {
		return nil, bad("name must be lower-case words joined by dots (like routine.good_night)")
	}
	switch y.Kind {
	case KindRead, KindWrite, KindAsk, KindRobot, KindMeta:
	default:
		return nil, bad("kind %q is not one of read, write, ask, robot, meta", y.Kind)
	}
	if y.Scope != "" && !slices.Contains(knownScopes, y.Scope) {
		return nil, bad("scope %q is not one of %s", y.Scope, strings.Join(knownScopes, ", "))
	}
	// A home's own write changes the house and a robot intent moves the robot; built-ins may
	// also write timers (scope timer) or end a teleport call (scope turn: whoever talks to
	// the robot may hang up) or run a game (scope play).
	writeScopes, robotScopes := []string{ScopeHouseWrite}, []string{ScopeRobot}
	if builtin {
		writeScopes, robotScopes = append(writeScopes, ScopeTimer), append(robotScopes, ScopeTurn, ScopePlay)
	}
	if y.Kind == KindWrite && !slices.Contains(writeScopes, y.Scope) {
		return nil, bad("a write intent needs scope %s", strings.Join(writeScopes, " or "))
	}
	if y.Kind == KindRobot && !slices.Contains(robotScopes, y.Scope) {
		return nil, bad("a robot intent needs scope %s", strings.Join(robotScopes, " or "))
	}
	if !builtin {
		if !slices.Contains(customHandlerTypes, y.Handler.Type) {
			return nil, bad("handler type %q is not one of %s", y.Handler.Type, strings.Join(customHandlerTypes, ", "))
		}
		if y.Kind == KindAsk || y.Kind == KindMeta {
			return nil, bad("kind %s is reserved for built-in intents", y.Kind)
		}
		if err := checkCustomHandler(y.Handler, y.Kind); err != nil {
			return nil, bad("%v", err)
		}
		if len(y.Patterns) == 0 {
			return nil, bad("needs at least one pattern")
		}
	}
	switch {
	case y.Router != "" && y.Router != "frame":
		return nil, bad("router %q: the only other router is frame", y.Router)
	case y.Router == "frame" && !builtin:
		return nil, bad("router frame is for built-in intents; a home's intents use patterns")
	case y.Router == "frame" && len(y.Patterns) > 0:
		return nil, bad("an intent routed by the frame router has no patterns")
	}
	if len(y.Patterns) > 0 && len(y.Examples) == 0 {
		return nil, bad("needs at least one example (the table tests itself with them)")
	}
	in := &Intent{Name: y.Name, Kind: y.Kind, Scope: y.Scope, Description: y.Description, Args: y.Args,
		Examples: y.Examples, Handler: y.Handler, Fallback: y.Fallback, Builtin: builtin, Frame: y.Router == "frame", RoomVoiceOnly: y.RoomVoiceOnly, where: at}
	in.frameRule = &Rule{Intent: in.Name, Index: -1, Pattern: "frame router (intents/frame.go)", Where: at}
	names := map[string]bool{}
	for _, a := range y.Args {
		switch a.Type {
		case ArgRoom, ArgState, ArgTemperature, ArgPerson, ArgExpression, ArgDuration, ArgLabel:
		case ArgTopic, ArgText:
			if !builtin {
				return nil, bad("argument %s: free text arguments are reserved for general.ask", a.Name)
			}
		default:
			return nil, bad("argument %s: unknown type %q", a.Name, a.Type)
		}
		if a.Device != "" && !slices.Contains(knownDevices, a.Device) {
			return nil, bad("argument %s: unknown device %q", a.Name, a.Device)
		}
		if a.Unknown != "" && a.Unknown != "ask" && a.Unknown != "drop" {
			return nil, bad("argument %s: unknown must be ask or drop", a.Name)
		}
		if a.Unknown == "drop" && a.Required {
			return nil, bad("argument %s: a required argument cannot be dropped when unknown", a.Name)
		}
		if a.All && a.Type != ArgLabel {
			return nil, bad("argument %s: only a label argument takes all", a.Name)
		}
		if names[a.Name] {
			return nil, bad("argument %s declared twice", a.Name)
		}
		names[a.Name] = true
	}
	for _, node := range y.Patterns {
		where := fmt.Sprintf("%s:%d", file, node.Line)
		if node.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: intent %q: a pattern must be a string", where, y.Name)
		}
		p, err := compilePattern(node.Value, in, v)
		if err != nil {
			return nil, fmt.Errorf("%s: intent %q: pattern %q: %v", where, y.Name, node.Value, err)
		}
		p.where = where
		in.patterns = append(in.patterns, p)
	}
	return in, nil
}

func checkCustomHandler(h Binding, k Kind) error {
	switch h.Type {
	case "reply":
		if strings.TrimSpace(h.Text) == "" {
			return errors.New("handler reply needs text")
		}
		if k == KindWrite {
			return errors.New("a reply handler only speaks: use kind read")
		}
	case "home.service":
		if k != KindWrite {
			return errors.New("a home.service handler changes the house: use kind write")
		}
		if h.Service == "" && h.Topic == "" {
			return errors.New("handler home.service needs service (Home Assistant) or topic (MQTT)")
		}
	case "webhook":
		if !strings.HasPrefix(h.URL, "http://") && !strings.HasPrefix(h.URL, "https://") {
			return errors.New("handler webhook needs an http(s) url")
		}
	case "robot.expression":
		if k != KindRobot {
			return errors.New("a robot.expression handler needs kind robot")
		}
		if h.Expression == "" {
			return errors.New("handler robot.expression needs expression")
		}
	}
	return nil
}

var placeholderRE = regexp.MustCompile(`\{([a-z_]+|lex:[a-z0-9_.]+)\}`)

// compilePattern expands {placeholders} into named groups and anchors the pattern.
func compilePattern(src string, in *Intent, v vocab) (pattern, error) {
	var perr error
	used := map[string]bool{}
	expanded := placeholderRE.ReplaceAllStringFunc(src, func(m string) string {
		name := m[1 : len(m)-1]
		if set, ok := strings.CutPrefix(name, "lex:"); ok {
			alt, ok := v.lex.alternation(set)
			if !ok {
				perr = fmt.Errorf("placeholder {%s}: no lexicon set %q (intents/lexicon.yaml)", name, set)
				return m
			}
			return alt
		}
		spec, ok := in.Arg(name)
		if !ok {
			perr = fmt.Errorf("placeholder {%s} is not an argument of the intent", name)
			return m
		}
		used[name] = true
		switch spec.Type {
		case ArgRoom, ArgPerson:
			// Any short phrase is captured, so an unknown room or person is recognised as
			// such and asked about; the closed vocabulary is checked by the router.
			return `(?P<` + name + `>[a-z0-9]+(?: [a-z0-9]+){0,2}?)`
		case ArgState:
			return `(?P<` + name + `>on|off)`
		case ArgTemperature:
			return `(?P<` + name + `>[0-9]{1,3})`
		case ArgExpression:
			return `(?P<` + name + `>` + v.expressionAlternation() + `)`
		case ArgDuration:
			// One token of the duration view (durationView): a run of duration words joined
			// by "_", so "... for 10 minutes and turn on the light" is not one. The parser
			// then reads or refuses what was captured.
			return `~(?P<` + name + `>[a-z0-9.]+(?:_[a-z0-9.]+)*)`
		case ArgLabel:
			// Any short phrase, like rooms: an unknown label is recognised as one and then
			// dropped or asked about, never passed on as text.
			return `(?P<` + name + `>[a-z0-9]+(?: [a-z0-9]+)??)`
		}
		perr = fmt.Errorf("placeholder {%s} of type %s cannot appear in a pattern", name, spec.Type)
		return m
	})
	if perr != nil {
		return pattern{}, perr
	}
	re, err := regexp.Compile(`^(?:` + expanded + `)$`)
	if err != nil {
		return pattern{}, fmt.Errorf("bad regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	for _, g := range re.SubexpNames() {
		if g != "" {
			if _, ok := in.Arg(g); !ok {
				return pattern{}, fmt.Errorf("named group %q is not an argument of the intent", g)
			}
		}
	}
	for _, a := range in.Args {
		if a.Required && a.Type != ArgText && !used[a.Name] && in.Kind != KindWrite {
			return pattern{}, fmt.Errorf("required argument %s has no {%s} placeholder", a.Name, a.Name)
		}
	}
	groups := re.SubexpNames()
	return pattern{source: src, re: re, groups: groups, filter: derivePrefilter(`^(?:` + expanded + `)$`), gate: deriveGate(`^(?:` + expanded + `)$`), durations: used["duration"] || usesType(in, used, ArgDuration)}, nil
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func usesType(in *Intent, used map[string]bool, t ArgType) bool {
	for name := range used {
		if spec, ok := in.Arg(name); ok && spec.Type == t {
			return true
		}
	}
	return false
}
