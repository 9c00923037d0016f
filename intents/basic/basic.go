// Package basic holds the deterministic handlers that need nothing outside the broker:
// greeting, help (the command guide), time and date in the home's time zone, robot stop and
// expressions, the local answer to an unclear sentence about the home, and the fixed or
// templated replies of config-file intents.
//
// It must never do network or file I/O and never speak a fact about the family.
package basic

import (
	"context"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// Handlers returns the deterministic handlers by handler type. now is the clock (time.Now
// in production).
func Handlers(now func() time.Time) map[string]intents.Handler {
	return map[string]intents.Handler{
		"greeting":         intents.HandlerFunc(greeting),
		"help":             intents.HandlerFunc(help),
		"time":             clock{now: now, date: false},
		"date":             clock{now: now, date: true},
		"robot.stop":       intents.HandlerFunc(stop),
		"robot.expression": intents.HandlerFunc(expression),
		"reply":            intents.HandlerFunc(reply),
		"unclear":          intents.HandlerFunc(unclear),
	}
}

var greetings = []string{
	"Hello! What can I do for you?",
	"Hi there. How can I help?",
	"Hello. I'm listening.",
	"Good to see you. What would you like?",
}

func greeting(ctx context.Context, c intents.Call) (intents.Answer, error) {
	return intents.Answer{Reply: greetings[rand.IntN(len(greetings))], Expression: intents.ExpressionHappy, FollowUp: true}, nil
}

func help(ctx context.Context, c intents.Call) (intents.Answer, error) {
	o := intents.GuideOptions{Scopes: c.Scopes, Available: c.Available, Callable: c.Callable, MaxChars: c.MaxReply}
	return intents.Answer{Reply: c.Table.SpokenGuideWith(o), Expression: intents.ExpressionNeutral, FollowUp: true}, nil
}

type clock struct {
	now  func() time.Time
	date bool
}

func (k clock) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	t := k.now().In(c.Table.Location())
	if k.date {
		return intents.Answer{Reply: "Today is " + t.Format("Monday, January 2") + ".", Expression: intents.ExpressionNeutral}, nil
	}
	return intents.Answer{Reply: "It's " + t.Format("3:04 PM") + ".", Expression: intents.ExpressionNeutral}, nil
}

func stop(ctx context.Context, c intents.Call) (intents.Answer, error) {
	return intents.Answer{Reply: "", Expression: intents.ExpressionStop}, nil
}

func expression(ctx context.Context, c intents.Call) (intents.Answer, error) {
	e := c.Args["expression"]
	if e == "" {
		e = c.Intent.Handler.Expression
	}
	return intents.Answer{Reply: "", Expression: e}, nil
}

func reply(ctx context.Context, c intents.Call) (intents.Answer, error) {
	text := c.Intent.Handler.Text
	for k, v := range c.Args {
		text = strings.ReplaceAll(text, "{"+k+"}", v)
	}
	return intents.Answer{Reply: text, Expression: intents.ExpressionNeutral}, nil
}

// unclear answers a sentence about this home that fits no intent, from the table's own
// examples: it never repeats what was said and never reaches the agent.
func unclear(ctx context.Context, c intents.Call) (intents.Answer, error) {
	return intents.Answer{Reply: c.Table.UnclearPrompt(c.Args["topic"]), Expression: intents.ExpressionConfused, FollowUp: true}, nil
}
