package intents

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

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
	Router      string      `yaml:"router"` // "frame": built-ins decided by the frame router
	// RoomVoiceOnly: only a robot's spoken turn (or a clip it heard in a call) may cause it.
	RoomVoiceOnly bool `yaml:"room_voice_only"`
	line          int
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
	t := &Table{Home: home, byName: map[string]*Intent{}, zone: time.Local}
	if home.Timezone != "" {
		// Loaded once per table: time.LoadLocation reads the zone database from disk.
		loc, err := time.LoadLocation(home.Timezone)
		if err != nil {
			return nil, fmt.Errorf("%s: home.timezone %q is not a time zone (like Europe/London): %v", file, home.Timezone, err)
		}
		t.zone = loc
	}
	t.vocab = newVocab(home)
	lex, err := newLexicon(home.Lexicon, file)
	if err != nil {
		return nil, err
	}
	t.vocab.lex = lex
	t.vocab.lexIx = newLexIndex(lex)
	t.vocab.lexGate = newLexGates(t.vocab.lexIx)
	t.vocab.words = newWordIndex(&t.vocab)
	for i, s := range socialSets[:len(t.vocab.socialStarts)] {
		t.vocab.socialStarts[i] = lex[s]
	}
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
			in.Internal = in.Name == IntentClarify || in.Name == IntentUnclear || in.Name == IntentPlayAnswer
		}
		switch {
		case len(in.patterns) == 0:
		case in.Builtin:
			t.builtins = append(t.builtins, in)
		default:
			t.custom = append(t.custom, in)
		}
	}
	t.customIx, t.builtinIx = newPatternIndex(t.custom), newPatternIndex(t.builtins)
	t.sound = newSoundAlike(&t.vocab, t.intents)
	if t.foreign, err = loadForeign(); err != nil {
		return nil, err
	}
	t.foreignMarkers = map[string]bool{}
	for _, l := range t.foreign {
		maps.Copy(t.foreignMarkers, l.markers)
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
