package play

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed games.yaml
var builtinYAML []byte

// Expressions are the robot's expressions a game may show (the hub maps each to a move).
var Expressions = []string{"dance", "nod", "celebrate", "happy", "sad", "surprised", "curious", "sleepy", "confused"}

// Head angles a Simon-says move may ask for, in degrees; the hub clamps again to the daemon's
// limits.
const (
	maxYawDeg   = 60
	maxPitchDeg = 30
)

// Table is the games' content: built-in, extended by the home's file.
type Table struct {
	RPS     RPSSettings
	Animals []Animal
	Simon   SimonSettings
	Freeze  FreezeSettings
	Hide    HideSettings
}

// RPSSettings: rock, paper, scissors.
type RPSSettings struct {
	Wins     int               `yaml:"wins"`     // first to this many wins takes the game
	Gestures map[string]string `yaml:"gestures"` // rock/paper/scissors -> expression
}

// Animal is one animal of guess the animal: its clues, said one at a time, and the words
// that count as naming it.
type Animal struct {
	Name     string   `yaml:"name"`
	Synonyms []string `yaml:"synonyms"`
	Clues    []string `yaml:"clues"`
	where    string   // file:line, for the self-test's messages
}

// SimonSettings: Simon says.
type SimonSettings struct {
	Rounds       int         `yaml:"rounds"`
	WithoutSimon int         `yaml:"without_simon"`
	Moves        []SimonMove `yaml:"moves"`
}

// SimonMove is a move the robot calls and shows: with its head (Look) or an expression.
type SimonMove struct {
	Say        string `yaml:"say"`
	Look       *Look  `yaml:"look"`
	Expression string `yaml:"expression"`
	where      string
}

// Look is a head pose in degrees: yaw > 0 turns left, pitch > 0 tips the head down.
type Look struct {
	YawDeg   float64 `yaml:"yaw_deg"`
	PitchDeg float64 `yaml:"pitch_deg"`
}

// FreezeSettings: freeze dance.
type FreezeSettings struct {
	Rounds     int `yaml:"rounds"`
	MinSeconds int `yaml:"min_seconds"`
	MaxSeconds int `yaml:"max_seconds"`
}

// HideSettings: hide and seek.
type HideSettings struct {
	CountTo int `yaml:"count_to"`
}

// file is one table file as written.
type file struct {
	RPS     *RPSSettings    `yaml:"rock_paper_scissors"`
	Animals []Animal        `yaml:"animals"`
	Simon   *SimonSettings  `yaml:"simon_says"`
	Freeze  *FreezeSettings `yaml:"freeze_dance"`
	Hide    *HideSettings   `yaml:"hide_and_seek"`
}

// Default returns the built-in table.
func Default() (*Table, error) { return LoadTable("") }

// LoadTable reads the built-in table and, when path is set, the home's file on top of it, and
// tests the result. A broken table is refused with the file and line that is wrong.
func LoadTable(path string) (*Table, error) {
	base, err := parse(builtinYAML, "games.yaml")
	if err != nil {
		return nil, err
	}
	t := &Table{RPS: *base.RPS, Animals: base.Animals, Simon: *base.Simon, Freeze: *base.Freeze, Hide: *base.Hide}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("game table: %w", err)
		}
		home, err := parse(b, filepath.Base(path))
		if err != nil {
			return nil, err
		}
		t.extend(home)
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// extend lays the home's file over the table: its animals replace ones of the same name or
// are added, its moves are added, the settings it gives replace the built-in ones.
func (t *Table) extend(h *file) {
	for _, a := range h.Animals {
		replaced := false
		for i := range t.Animals {
			if words(t.Animals[i].Name) == words(a.Name) {
				t.Animals[i], replaced = a, true
			}
		}
		if !replaced {
			t.Animals = append(t.Animals, a)
		}
	}
	if h.RPS != nil {
		if h.RPS.Wins != 0 {
			t.RPS.Wins = h.RPS.Wins
		}
		for k, v := range h.RPS.Gestures {
			t.RPS.Gestures[k] = v
		}
	}
	if h.Simon != nil {
		if h.Simon.Rounds != 0 {
			t.Simon.Rounds = h.Simon.Rounds
		}
		if h.Simon.WithoutSimon != 0 {
			t.Simon.WithoutSimon = h.Simon.WithoutSimon
		}
		t.Simon.Moves = append(t.Simon.Moves, h.Simon.Moves...)
	}
	if h.Freeze != nil {
		if h.Freeze.Rounds != 0 {
			t.Freeze.Rounds = h.Freeze.Rounds
		}
		if h.Freeze.MinSeconds != 0 {
			t.Freeze.MinSeconds = h.Freeze.MinSeconds
		}
		if h.Freeze.MaxSeconds != 0 {
			t.Freeze.MaxSeconds = h.Freeze.MaxSeconds
		}
	}
	if h.Hide != nil && h.Hide.CountTo != 0 {
		t.Hide.CountTo = h.Hide.CountTo
	}
}

// parse decodes one file strictly and notes where each animal and move is.
func parse(b []byte, name string) (*file, error) {
	var f file
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		// yaml's message already says "line N: ..."
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for i := range f.Animals {
		f.Animals[i].where = fmt.Sprintf("%s:%d", name, lineOf(&root, "animals", i))
	}
	if f.Simon != nil {
		for i := range f.Simon.Moves {
			f.Simon.Moves[i].where = fmt.Sprintf("%s:%d", name, lineOf(&root, "simon_says", "moves", i))
		}
	}
	return &f, nil
}

// lineOf follows a path of mapping keys and sequence indexes from a document's root and
// returns the line it ends on (0 when the path is not there).
func lineOf(n *yaml.Node, path ...any) int {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, p := range path {
		switch p := p.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return 0
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					next = n.Content[i+1]
				}
			}
			if next == nil {
				return 0
			}
			n = next
		case int:
			if n.Kind != yaml.SequenceNode || p >= len(n.Content) {
				return 0
			}
			n = n.Content[p]
		}
	}
	return n.Line
}

// words is the form a table word and a heard answer are compared in: lower case, letters and
// digits, single spaces.
func words(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			space = false
		case r == '\'':
			// "it's" -> "its"
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}
