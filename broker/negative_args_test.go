package broker

import (
	"strings"
	"testing"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
)

// TestNegativeArgumentsAreRefused: a minus sign is not a word separator. A typed call, an
// MCP tool call and a spoken sentence with a negative temperature or duration are refused
// (invalid_args) or not acted on — never run as the positive number (issue 25 item 12:
// `temperature: -20` set 20 °C, "-60 seconds" started a 60 s timer).
func TestNegativeArgumentsAreRefused(t *testing.T) {
	ac, timer := &countingLight{}, &countingLight{}
	tb := newTestBroker(t, func(c *Config, d *Deps) {
		d.Handlers["home.ac"] = ac
		d.Handlers["timer.start"] = timer
	})
	all := tb.token(t, "robot", "intent", "text", "house:read", "house:write", "timer", "mcp", "ask")
	typed := []struct{ intent, body string }{
		{"house.ac.set", `{"room":"bedroom","temperature":-20}`},
		{"house.ac.set", `{"room":"bedroom","temperature":"-20"}`},
		{"house.ac.set", `{"room":"bedroom","temperature":"- 20"}`},
		{"house.ac.set", `{"room":"bedroom","temperature":"\u221220"}`},
		{"house.ac.set", `{"room":"bedroom","state":"on","temperature":-22.0}`},
		{"timer.start", `{"duration":"-60 seconds"}`},
		{"timer.start", `{"duration":"-60"}`},
		{"timer.start", `{"duration":-60}`},
		{"timer.start", `{"duration":"- 5 minutes"}`},
		{"timer.start", `{"duration":"\u22121 minute"}`},
	}
	for _, c := range typed {
		r := tb.do(t, "POST", "/v1/intents/"+c.intent, all, "application/json", []byte(c.body))
		if r.status != 400 || r.code(t) != api.CodeInvalidArgs {
			t.Errorf("typed %s %s: %d %s", c.intent, c.body, r.status, r.body)
		}
		body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + c.intent + `","arguments":` + c.body + `}}`
		m := mcpPost(t, tb, all, body)
		if m.status != 200 || !strings.Contains(string(m.body), `"isError":true`) || strings.Contains(string(m.body), `"outcome":"ok"`) {
			t.Errorf("mcp %s %s: %d %s", c.intent, c.body, m.status, m.body)
		}
	}
	spoken := []string{
		"set the bedroom AC to minus 20", "set the bedroom ac to -20 degrees", "set the bedroom ac to - 20",
		"set the bedroom ac to negative 20", "set the bedroom ac to \u221220", "set the bedroom ac to minus twenty two",
		"set a timer for -60 seconds", "set a timer for minus 60 seconds", "start a timer for minus five minutes",
		"set a timer for - 10 minutes", "timer for negative 2 hours",
	}
	for _, s := range spoken {
		tr := tb.say(t, all, s).turn(t)
		if tr.Intent == "house.ac.set" && tr.Outcome == store.OutcomeOK || tr.Intent == "timer.start" && tr.Outcome == store.OutcomeOK {
			t.Errorf("%q acted: %s %v %q", s, tr.Intent, tr.Args, tr.Reply)
		}
		for _, v := range tr.Args {
			if v == "20" || v == "22" || v == "60" || v == "300" || v == "600" || v == "7200" {
				t.Errorf("%q was read as a positive number: %s %v", s, tr.Intent, tr.Args)
			}
		}
	}
	if ac.count() != 0 || timer.count() != 0 {
		t.Fatalf("a negative number was acted on: %d AC writes, %d timers", ac.count(), timer.count())
	}
	// The positive numbers still work, and a subtraction is not a sign.
	if tr := tb.say(t, all, "set the bedroom ac to 20").turn(t); tr.Intent != "house.ac.set" || tr.Args["temperature"] != "20" {
		t.Fatalf("positive set point: %+v", tr)
	}
	r := tb.do(t, "POST", "/v1/intents/timer.start", all, "application/json", []byte(`{"duration":"60 seconds"}`))
	if r.status != 200 || timer.count() != 1 {
		t.Fatalf("positive duration: %d %s", r.status, r.body)
	}
}
