package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// docBlock is one fenced code block of a Markdown file.
type docBlock struct {
	lang, text string
	line       int
}

var fenceRE = regexp.MustCompile("(?m)^```([a-z]*)\n((?s:.*?))^```\n")

func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, m := range fenceRE.FindAllSubmatchIndex(b, -1) {
		out = append(out, docBlock{lang: string(b[m[2]:m[3]]), text: string(b[m[4]:m[5]]), line: 1 + strings.Count(string(b[:m[0]]), "\n")})
	}
	return out
}

// shellWords splits a command line as a POSIX shell would for the simple lines the docs use:
// single and double quotes, and a trailing # comment.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unclosed %c", c)
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			i = len(line)
		case c == '\\' || c == '$' || c == '|' || c == '>' || c == '<' || c == '&' || c == ';' || c == '`':
			return nil, fmt.Errorf("the doc test runs plain commands only, not %q", c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// argSamples are values the doc test says for an argument of each type.
var argSamples = map[string]string{"room": "kitchen", "state": "on", "person": "mom", "temperature": "21", "expression": "dance"}

// TestIntentsDocRuns keeps docs/intents.md honest: its YAML blocks, put together as one config
// file, load and lint clean; a YAML fragment (indented, part of an intent entry) works inside an
// intent; a text block named "# FILE" is written out; and every command of its shell blocks
// exits 0 against that config.
func TestIntentsDocRuns(t *testing.T) {
	blocks := docBlocks(t, "../../docs/intents.md")
	dir := t.TempDir()
	config := map[string]any{}
	var intentsList []any
	var fragments []docBlock
	var commands [][]string
	ran := map[string]int{}
	for _, b := range blocks {
		where := fmt.Sprintf("docs/intents.md:%d", b.line)
		switch b.lang {
		case "yaml":
			ran["yaml"]++
			if strings.HasPrefix(b.text, " ") {
				fragments = append(fragments, b)
				continue
			}
			var m map[string]any
			if err := yaml.Unmarshal([]byte(b.text), &m); err != nil {
				t.Fatalf("%s: the YAML block does not parse: %v", where, err)
			}
			for k, v := range m {
				if k == "intents" {
					list, ok := v.([]any)
					if !ok {
						t.Fatalf("%s: intents is not a list", where)
					}
					intentsList = append(intentsList, list...)
					continue
				}
				if _, dup := config[k]; dup {
					t.Fatalf("%s: a second %s section", where, k)
				}
				config[k] = v
			}
		case "text":
			first, rest, _ := strings.Cut(b.text, "\n")
			name, ok := strings.CutPrefix(first, "# ")
			if !ok {
				t.Fatalf("%s: a text block must start with '# FILE' to be used", where)
			}
			os.WriteFile(filepath.Join(dir, filepath.Base(name)), []byte(rest), 0o600)
			ran["text"]++
		case "sh":
			ran["sh"]++
			for i, line := range strings.Split(b.text, "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				words, err := shellWords(line)
				if err != nil || len(words) == 0 || words[0] != "reachyctl" {
					t.Fatalf("docs/intents.md:%d: %q is not a reachyctl command the doc test can run (%v)", b.line+1+i, line, err)
				}
				commands = append(commands, words[1:])
			}
		default:
			t.Fatalf("%s: a %q block: the doc test runs yaml, sh and text blocks only", where, b.lang)
		}
	}
	if ran["yaml"] == 0 || ran["sh"] == 0 || len(intentsList) == 0 {
		t.Fatalf("docs/intents.md lost its examples: %v", ran)
	}
	// Each fragment is tried inside an intent that uses the arguments it declares.
	for _, f := range fragments {
		var frag map[string]any
		if err := yaml.Unmarshal([]byte(f.text), &frag); err != nil {
			t.Fatalf("docs/intents.md:%d: the YAML fragment does not parse: %v", f.line, err)
		}
		entry := map[string]any{"name": fmt.Sprintf("doc.fragment_%d", f.line), "kind": "read",
			"handler": map[string]any{"type": "reply", "text": "Checked."}}
		pattern, example := "doc check", "doc check"
		args, _ := frag["args"].([]any)
		for _, a := range args {
			spec, _ := a.(map[string]any)
			name, _ := spec["name"].(string)
			typ, _ := spec["type"].(string)
			sample, ok := argSamples[typ]
			if !ok {
				t.Fatalf("docs/intents.md:%d: the doc test has no sample value for an argument of type %q", f.line, typ)
			}
			pattern += " {" + name + "}"
			example += " " + sample
		}
		for k, v := range frag {
			entry[k] = v
		}
		entry["patterns"], entry["examples"] = []any{pattern}, []any{example}
		intentsList = append(intentsList, entry)
	}
	config["intents"] = intentsList
	b, err := yaml.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "config.yaml"), b, 0o600)
	t.Chdir(dir)
	if code, out, errs := ctl(t, "intents", "lint", "--config", "config.yaml"); code != 0 || !strings.HasPrefix(out, "ok") {
		t.Fatalf("the doc's YAML, put together, does not lint clean: exit %d\n%s%s\n--- config.yaml\n%s", code, out, errs, b)
	}
	for _, args := range commands {
		if code, out, errs := ctl(t, args...); code != 0 {
			t.Errorf("reachyctl %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
}

// TestHandlerFieldsAsDocumented: each handler type loads with the fields docs/intents.md
// gives it, a read intent needs no scope, and a reply handler given reply: instead of text: is
// refused with a message that says so.
func TestHandlerFieldsAsDocumented(t *testing.T) {
	dir := t.TempDir()
	good := `intents:
  - {name: doc.reply, kind: read, handler: {type: reply, text: "It is {state}."}, args: [{name: state, type: state, required: true}], patterns: ['doc reply {state}'], examples: [doc reply on]}
  - {name: doc.porch, kind: write, scope: house:write, handler: {type: home.service, service: light.turn_on, entity: light.porch, data: {brightness: "80"}, reply: Porch light on.}, patterns: ['doc porch'], examples: [doc porch]}
  - {name: doc.fan, kind: write, scope: house:write, handler: {type: home.service, topic: zigbee2mqtt/fan/set, payload: '{"state":"ON"}'}, patterns: ['doc fan'], examples: [doc fan]}
  - {name: doc.movie, kind: write, scope: house:write, handler: {type: webhook, url: 'http://nodered.local:1880/movie', timeout: 3s, reply: Enjoy.}, patterns: ['doc movie'], examples: [doc movie]}
  - {name: doc.wiggle, kind: robot, scope: robot, handler: {type: robot.expression, expression: celebrate}, patterns: ['doc wiggle'], examples: [doc wiggle]}
`
	path := filepath.Join(dir, "good.yaml")
	os.WriteFile(path, []byte(good), 0o600)
	if code, out, errs := ctl(t, "intents", "lint", "--config", path); code != 0 || !strings.HasPrefix(out, "ok") {
		t.Fatalf("the documented fields do not load: exit %d %s%s", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(`intents:
  - {name: doc.reply, kind: read, handler: {type: reply, reply: Hello.}, patterns: ['doc reply'], examples: [doc reply]}
`), 0o600)
	if code, _, errs := ctl(t, "intents", "lint", "--config", bad); code == 0 || !strings.Contains(errs, "needs text") {
		t.Fatalf("a reply handler without text: exit %d %s", code, errs)
	}
}
