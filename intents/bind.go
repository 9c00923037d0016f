package intents

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Binding: the words a rule captured become an intent's arguments in the home's closed
// vocabularies (rooms, people, durations, labels), and a binding settles into a decision — or
// into a clarifying question for what is missing or not the home's word.

// problem is an argument the sentence got wrong or left out.
type problem struct {
	arg, value, why string // why: missing | unknown | out_of_range | no_device | no_device_room
}

type binding struct {
	args          map[string]string
	problems      []problem
	notes         []string
	notApplicable bool
}

// bind checks captured values against the closed vocabularies and fills defaults.
func (t *Table) bind(in *Intent, captured map[string]string, ctx Context) binding {
	b := binding{args: map[string]string{}}
	for _, spec := range in.Args {
		raw, ok := captured[spec.Name]
		if !ok && spec.Default != "" {
			raw, ok = spec.Default, true
		}
		if !ok {
			if spec.Required {
				b.problems = append(b.problems, problem{arg: spec.Name, why: "missing"})
			}
			continue
		}
		switch spec.Type {
		case ArgRoom:
			t.bindRoom(&b, spec, raw, ctx)
		case ArgState:
			if raw != "on" && raw != "off" {
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
				continue
			}
			b.args[spec.Name] = raw
		case ArgTemperature:
			v, err := strconv.Atoi(raw)
			if err != nil || v < t.Home.ACRange.Min || v > t.Home.ACRange.Max {
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "out_of_range"})
				continue
			}
			b.args[spec.Name] = strconv.Itoa(v)
		case ArgPerson:
			name, known, applies := t.vocab.resolvePerson(raw)
			switch {
			case !applies:
				b.notApplicable = true
			case !known:
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
			default:
				b.args[spec.Name] = name
			}
		case ArgExpression:
			e, ok := t.vocab.expressions[raw]
			if !ok {
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
				continue
			}
			b.args[spec.Name] = e
		case ArgTopic:
			if !contains(unclearTopics, raw) {
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
				continue
			}
			b.args[spec.Name] = raw
		case ArgDuration:
			secs, outcome := parseDuration(raw)
			switch outcome {
			case durationUnknown:
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
			case durationOutOfRange:
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "out_of_range"})
			default:
				b.args[spec.Name] = strconv.Itoa(secs)
				b.notes = append(b.notes, fmt.Sprintf("%s: %d seconds (%s)", spec.Name, secs, spokenDuration(secs)))
			}
		case ArgLabel:
			ref, label := t.vocab.resolveLabel(raw)
			if ref == labelUnknown {
				ref, label = t.heardLabel(raw) // "for my baff": a child's bath
			}
			switch {
			case ref == labelNotALabel:
				b.notApplicable = true
			case ref == labelKnown, ref == labelAll && spec.All:
				b.args[spec.Name] = label
			default:
				b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
			}
		}
	}
	return b
}

func (t *Table) bindRoom(b *binding, spec ArgSpec, raw string, ctx Context) {
	ref, room := t.vocab.resolveRoom(raw)
	switch ref {
	case roomNotARoom:
		b.notApplicable = true
		return
	case roomAll:
		b.args[spec.Name] = "all"
		return
	case roomUnknown:
		b.problems = append(b.problems, problem{arg: spec.Name, value: raw, why: "unknown"})
		return
	case roomHere:
		here := ctx.DeviceRoom
		if here == "" {
			here = t.vocab.deviceRoom
		}
		r, ok := t.vocab.rooms[here] // a room's name is its own key
		if !ok {
			r, ok = t.vocab.rooms[normalizeVocab(here)]
		}
		if !ok {
			b.problems = append(b.problems, problem{arg: spec.Name, why: "no_device_room"})
			return
		}
		room = r
		b.notes = append(b.notes, `"here" is this device's room: `+r.Name)
	}
	if spec.Device != "" && !slices.Contains(room.Devices, spec.Device) {
		b.problems = append(b.problems, problem{arg: spec.Name, value: room.Name, why: "no_device"})
		return
	}
	b.args[spec.Name] = room.Name
}

// settle turns a binding into a decision, or into a clarifying question when an argument is
// missing or not in the home's vocabulary.
func (t *Table) settle(in *Intent, b binding, rule *Rule, n Normalized) Decision {
	kept := b.problems[:0:0]
	for _, p := range b.problems {
		if spec, _ := in.Arg(p.arg); p.why == "unknown" && spec.Unknown == "drop" {
			// Never passed on as text, never echoed: the word is simply left out.
			b.notes = append(b.notes, fmt.Sprintf("%s was not one of the home's words: left out", p.arg))
			continue
		}
		kept = append(kept, p)
	}
	b.problems = kept
	if len(b.problems) == 0 {
		d := t.decide(in, b.args, rule, n)
		d.Doctrine = append(d.Doctrine, b.notes...)
		return d
	}
	p := b.problems[0]
	if spec, _ := in.Arg(p.arg); p.why == "no_device" && (in.Kind == KindRead || in.Kind == KindWrite && b.args["temperature"] != "") &&
		(spec.Device == "ac" || spec.Device == "light") {
		// "is the AC on in the kitchen", "set the office AC to 22": a room without one —
		// nothing to read, no setting to ask back; which rooms have one is the answer ("turn
		// on the AC in the kitchen" still asks which room)
		return t.unclear(n, "no_"+spec.Device, in.Name+" in a room without "+deviceWord(spec.Device))
	}
	d := t.decide(t.byName[IntentClarify], map[string]string{}, rule, n)
	d.Pending = &Pending{Intent: in.Name, Args: b.args, Missing: p.arg}
	spec, _ := in.Arg(p.arg)
	if spec.Type == ArgDuration && p.why == "unknown" {
		d.Pending.Unit = spokenUnit(p.value)
	}
	d.Prompt = t.question(spec, p)
	d.Doctrine = append(d.Doctrine, b.notes...)
	d.Doctrine = append(d.Doctrine, fmt.Sprintf("%s needs %s (%s): ask", in.Name, p.arg, strings.ReplaceAll(p.why, "_", " ")))
	return d
}
