package intents

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
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
	ScopeTimer        = "timer"    // set, ask about and cancel kitchen timers
	ScopeAnnounce     = "announce" // an operator may speak announcements on robots
)

// KnownScopes lists every scope a token may carry.
var knownScopes = []string{ScopeTurn, ScopeIntent, ScopeText, ScopeHouseRead, ScopeHouseWrite, ScopeCalendarRead, ScopeAsk, ScopeRobot, ScopeTimer, ScopeAnnounce}

// KnownScopes returns every scope a device token may carry.
func KnownScopes() []string { return slices.Clone(knownScopes) }

// Names of intents the router itself produces.
const (
	IntentClarify    = "clarify"
	IntentGeneralAsk = "general.ask"
	IntentDeepAsk    = "general.ask.deep"
	IntentGreeting   = "greeting"
	IntentNone       = "none" // no wake phrase: nothing to do
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
	ArgText        ArgType = "text" // free text: only general.ask may have one
)

// ArgSpec declares one argument of an intent.
type ArgSpec struct {
	Name     string  `yaml:"name" json:"name"`
	Type     ArgType `yaml:"type" json:"type"`
	Device   string  `yaml:"device,omitempty" json:"device,omitempty"` // rooms must have this device
	Required bool    `yaml:"required,omitempty" json:"required,omitempty"`
	Default  string  `yaml:"default,omitempty" json:"default,omitempty"`
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
	// Unavailable marks a built-in intent this home cannot use (no room has its device, no
	// people are listed): it stays on the allowlist but has no examples and no guide entry.
	Unavailable bool `json:"unavailable,omitempty"`

	patterns []pattern
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
}

// Room is a room of the home and the devices it has.
type Room struct {
	Name    string   `yaml:"name" json:"name"`
	Aliases []string `yaml:"aliases,omitempty" json:"aliases,omitempty"`
	Devices []string `yaml:"devices" json:"devices"`
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
	Timezone    string              `yaml:"timezone" json:"timezone"`
	DeviceRoom  string              `yaml:"device_room" json:"device_room"`
	WakePhrases []string            `yaml:"wake_phrases" json:"wake_phrases"`
	ACRange     Range               `yaml:"ac_range" json:"ac_range"`
	Rooms       []Room              `yaml:"rooms" json:"rooms"`
	People      []Person            `yaml:"people" json:"people"`
	Expressions map[string][]string `yaml:"expressions" json:"expressions"`
}

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
	byName  map[string]*Intent
	vocab   vocab
	guide   []GuideEntry
}

// Intents returns the intents in routing order.
func (t *Table) Intents() []*Intent { return slices.Clone(t.intents) }

// Lookup finds an intent by name.
func (t *Table) Lookup(name string) (*Intent, bool) {
	in, ok := t.byName[name]
	return in, ok
}

// configFile is the part of the broker's config file this package reads. The other
// top-level keys belong to the broker, whose loader checks them.
type configFile struct {
	Home    *Home                `yaml:"home"`
	Intents []intentYAML         `yaml:"intents"`
	Rest    map[string]yaml.Node `yaml:",inline"`
}

type intentYAML struct {
	Name        string      `yaml:"name"`
	Kind        Kind        `yaml:"kind"`
	Scope       string      `yaml:"scope"`
	Description string      `yaml:"description"`
	Args        []ArgSpec   `yaml:"args"`
	Patterns    []yaml.Node `yaml:"patterns"`
	Examples    []string    `yaml:"examples"`
	Handler     Binding     `yaml:"handler"`
	Fallback    string      `yaml:"fallback"`
	line        int
}

// UnmarshalYAML records where the intent starts so errors can point at it. yaml.v3 does not
// carry KnownFields into custom unmarshalers, so unknown keys are checked here.
func (y *intentYAML) UnmarshalYAML(n *yaml.Node) error {
	if err := checkKnownKeys(n, reflect.TypeOf(*y)); err != nil {
		return err
	}
	type plain intentYAML
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*y = intentYAML(p)
	y.line = n.Line
	return nil
}

// checkKnownKeys walks a mapping node and rejects keys the struct type has no field for.
func checkKnownKeys(n *yaml.Node, t reflect.Type) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
		if n.Kind == yaml.SequenceNode {
			for _, item := range n.Content {
				if err := checkKnownKeys(item, t); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if t.Kind() != reflect.Struct || n.Kind != yaml.MappingNode {
		return nil
	}
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			fields[name] = f.Type
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ft, ok := fields[k.Value]
		if !ok {
			return fmt.Errorf("line %d: field %s not found in %s", k.Line, k.Value, strings.TrimSuffix(strings.ToLower(t.Name()), "yaml"))
		}
		if ft != reflect.TypeOf(yaml.Node{}) && ft != reflect.TypeOf([]yaml.Node{}) {
			if err := checkKnownKeys(n.Content[i+1], ft); err != nil {
				return err
			}
		}
	}
	return nil
}

// DemoConfig is the embedded demo home, in config-file form.
func DemoConfig() []byte { return slices.Clone(demoHomeYAML) }

// LoadDemo returns the demo home's table.
func LoadDemo() (*Table, error) { return Parse(demoHomeYAML, "demo_home.yaml") }

// LoadFile reads a config file and builds its table. A file without a home section gets the
// demo home.
func LoadFile(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load intents %s: %w", path, err)
	}
	return Parse(b, path)
}

// Parse builds a table from config-file bytes; name is used in error messages (file:line).
// Decoding of the home and intents sections is strict: unknown keys are errors. Other
// top-level keys are the broker's (broker.LoadConfig checks them).
func Parse(b []byte, name string) (*Table, error) {
	cfg, err := decodeStrict[configFile](b, name)
	if err != nil {
		return nil, err
	}
	builtins, err := decodeStrict[[]intentYAML](builtinYAML, "builtin.yaml")
	if err != nil {
		return nil, fmt.Errorf("built-in table: %w", err)
	}
	home := cfg.Home
	if home == nil {
		demo, err := decodeStrict[configFile](demoHomeYAML, "demo_home.yaml")
		if err != nil {
			return nil, err
		}
		home = demo.Home
	}
	return build(*home, cfg.Intents, builtins, name)
}

func decodeStrict[T any](b []byte, name string) (T, error) {
	var v T
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	// An empty file decodes to the zero value (io.EOF).
	if err := dec.Decode(&v); err != nil && !errors.Is(err, io.EOF) {
		return v, YAMLError(name, err)
	}
	return v, nil
}

var yamlLineRE = regexp.MustCompile(`(?:yaml: )?line (\d+): `)

// YAMLError rewrites yaml.v3's "line N: ..." messages as "file:N: ..." (the broker's
// config loader uses it too, so every config error points at its line the same way).
func YAMLError(name string, err error) error {
	var lines []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		lines = te.Errors
	} else {
		lines = []string{err.Error()}
	}
	for i, l := range lines {
		l = strings.TrimPrefix(l, "yaml: ")
		if m := yamlLineRE.FindStringSubmatchIndex(l); m != nil && m[0] == 0 {
			l = name + ":" + l[m[2]:m[3]] + ": " + l[m[1]:]
		} else {
			l = name + ": " + l
		}
		lines[i] = l
	}
	return errors.New(strings.Join(lines, "; "))
}

var intentNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$`)

func build(home Home, custom, builtins []intentYAML, file string) (*Table, error) {
	if err := checkHome(&home, file); err != nil {
		return nil, err
	}
	t := &Table{Home: home, byName: map[string]*Intent{}}
	t.vocab = newVocab(home)
	add := func(y intentYAML, builtin bool, where string) error {
		in, err := compileIntent(y, builtin, t.vocab, where)
		if err != nil {
			return err
		}
		if _, dup := t.byName[in.Name]; dup {
			return fmt.Errorf("%s:%d: intent %q is defined twice (built-in names cannot be reused)", where, y.line, in.Name)
		}
		t.byName[in.Name] = in
		t.intents = append(t.intents, in)
		return nil
	}
	for _, y := range custom {
		if err := add(y, false, file); err != nil {
			return nil, err
		}
	}
	for _, y := range builtins {
		if err := add(y, true, "builtin.yaml"); err != nil {
			return nil, err
		}
	}
	for _, in := range t.intents {
		if in.Builtin {
			in.Examples, in.Unavailable = fillExamples(in, home)
		}
	}
	for _, in := range t.intents {
		if in.Fallback == "" {
			continue
		}
		fb, ok := t.byName[in.Fallback]
		if !ok || fb.Acts() {
			return nil, fmt.Errorf("intent %s: fallback %q must be a read or ask intent of this table", in.Name, in.Fallback)
		}
	}
	if err := t.selfTest(); err != nil {
		return nil, err
	}
	t.guide = buildGuide(t)
	return t, nil
}

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
	"dance": {"dance", "dancing", "boogie"}, "nod": {"nod", "nod your head", "nodding"},
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
	if y.Kind == KindWrite && y.Scope != ScopeHouseWrite {
		return nil, bad("a write intent needs scope house:write")
	}
	if y.Kind == KindRobot && y.Scope != ScopeRobot {
		return nil, bad("a robot intent needs scope robot")
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
	if len(y.Patterns) > 0 && len(y.Examples) == 0 {
		return nil, bad("needs at least one example (the table tests itself with them)")
	}
	in := &Intent{Name: y.Name, Kind: y.Kind, Scope: y.Scope, Description: y.Description, Args: y.Args,
		Examples: y.Examples, Handler: y.Handler, Fallback: y.Fallback, Builtin: builtin}
	names := map[string]bool{}
	for _, a := range y.Args {
		switch a.Type {
		case ArgRoom, ArgState, ArgTemperature, ArgPerson, ArgExpression:
		case ArgText:
			if !builtin {
				return nil, bad("argument %s: free text arguments are reserved for general.ask", a.Name)
			}
		default:
			return nil, bad("argument %s: unknown type %q", a.Name, a.Type)
		}
		if a.Device != "" && !slices.Contains(knownDevices, a.Device) {
			return nil, bad("argument %s: unknown device %q", a.Name, a.Device)
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

var placeholderRE = regexp.MustCompile(`\{([a-z_]+)\}`)

// compilePattern expands {placeholders} into named groups and anchors the pattern.
func compilePattern(src string, in *Intent, v vocab) (pattern, error) {
	var perr error
	used := map[string]bool{}
	expanded := placeholderRE.ReplaceAllStringFunc(src, func(m string) string {
		name := m[1 : len(m)-1]
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
	return pattern{source: src, re: re, groups: groups, filter: derivePrefilter(`^(?:` + expanded + `)$`)}, nil
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
