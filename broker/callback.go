package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/reachy-broker/reachy-broker/broker/console"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// Call back ("call dad", teleport.call): the room asks an owner of the console to call the
// robot. The owner's open console rings; otherwise a missed call waits for their next visit
// and the home's call webhook (teleport.call_webhook), if any, is sent one short JSON notice
// — robot, room, who is wanted, the console's address — never what was said.

// teleportCall is the handler of teleport.call.
type teleportCall struct{ b *Broker }

func (h teleportCall) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	b := h.b
	person := c.Args["person"]
	name := spokenName(person)
	owner := b.ownerFor(c.Table, person)
	if owner == "" {
		return intents.Answer{Reply: name + " isn't configured to take calls.", Expression: intents.ExpressionSorry}, nil
	}
	if on, err := b.d.State.Privacy(ctx, c.Device); err == nil && on {
		return intents.Answer{Reply: "Privacy mode is on, so " + name + " couldn't call in. Say privacy mode off first.", Expression: intents.ExpressionSorry}, nil
	}
	room := c.Room
	if room == "" {
		room = b.d.Table().Home.DeviceRoom
	}
	robot := b.callRobot(c, room)
	if robot == "" {
		// A laptop or a phone asked, and no robot is linked in its room: the owner's Answer
		// would have nothing to join.
		return intents.Answer{Reply: "No robot is linked in the " + room + " for " + name + " to call, so I didn't ring.", Expression: intents.ExpressionSorry}, nil
	}
	switch b.console.RequestCall(ctx, console.CallRequest{Owner: owner, Wanted: person, Device: robot, Room: room}) {
	case console.CallRang:
		return intents.Answer{Reply: "I've let " + name + " know.", Expression: intents.ExpressionHappy}, nil
	default:
		if b.d.Config.Teleport.CallWebhook != "" {
			return intents.Answer{Reply: name + " isn't at the console right now. I've left a missed call and sent a message.", Expression: intents.ExpressionNeutral}, nil
		}
		return intents.Answer{Reply: name + " isn't at the console right now. I've left a missed call.", Expression: intents.ExpressionNeutral}, nil
	}
}

// callRobot is the robot a call-back rings with: the asking device when it is a robot (it
// holds the robot link's scope, is in the config's devices, or its link is up), else the
// robot whose link is up in room (the first by name); "" when there is none.
func (b *Broker) callRobot(c intents.Call, room string) string {
	if slices.Contains(c.Scopes, intents.ScopeLink) || b.configured(c.Device) || b.link.Status(c.Device).Online {
		return c.Device
	}
	var found []string
	for _, r := range b.robots() {
		if strings.EqualFold(r.Room, room) && b.link.Status(r.Device).Online {
			found = append(found, r.Device)
		}
	}
	slices.Sort(found)
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// callable reports whether a person of table's home takes calls (is an owner of the console).
func (b *Broker) callable(table *intents.Table) func(person string) bool {
	return func(person string) bool { return b.ownerFor(table, person) != "" }
}

// ownerFor is the owner login a person of the home is (teleport.people), or the owner whose
// login's name part is the person's name or one of their aliases; "" when none is.
func (b *Broker) ownerFor(table *intents.Table, person string) string {
	tc := b.d.Config.Teleport
	if login, ok := tc.People[person]; ok {
		return login
	}
	names := []string{person}
	if table != nil {
		for _, p := range table.Home.People {
			if p.Name == person {
				names = append(names, p.Aliases...)
			}
		}
	}
	owners := append([]string(nil), tc.Owners...)
	if b.d.DevOwner != "" {
		owners = append(owners, b.d.DevOwner)
	}
	for _, o := range owners {
		local, _, _ := strings.Cut(o, "@")
		for _, n := range names {
			if strings.EqualFold(local, n) {
				return o
			}
		}
	}
	return ""
}

// spokenName is a person's name as the robot says it: "dad" -> "Dad".
func spokenName(person string) string {
	r := []rune(person)
	if len(r) == 0 {
		return "They"
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// notifyMissedCall POSTs a missed call-back to teleport.call_webhook: once, under the
// configured timeout, no redirects, no retry. The audit records that a notice went and
// whether it was taken — robot, the wanted person and the outcome, no words.
func (b *Broker) notifyMissedCall(ctx context.Context, owner string, n console.Notice) {
	tc := b.d.Config.Teleport
	if tc.CallWebhook == "" {
		return
	}
	n.ConsoleURL = tc.ConsoleURL
	body, _ := json.Marshal(n)
	ctx, cancel := context.WithTimeout(ctx, tc.CallWebhookTimeout)
	defer cancel()
	start := time.Now()
	code, err := postNotice(ctx, tc.CallWebhook, body)
	rec := store.AuditRecord{Time: b.d.Now().UTC(), TurnID: newTurnID(), Device: n.Robot, Route: "webhook", Intent: "teleport.call.notify",
		Args: map[string]string{"person": n.Wanted, "owner": owner}, Outcome: store.OutcomeOK, LatencyMS: time.Since(start).Milliseconds()}
	if err != nil {
		rec.Outcome, rec.Code = store.OutcomeFailed, code
		b.log.Warn("call webhook failed", "device", n.Robot, "code", code, "err", err)
	}
	if err := b.d.State.AppendAudit(context.WithoutCancel(ctx), rec); err != nil {
		b.log.Error("call webhook: audit failed", "err", err)
	}
}

// postNotice sends one notice; code is a closed word for the audit when it fails.
func postNotice(ctx context.Context, url string, body []byte) (code string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "invalid_url", err
	}
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return "timeout", err
		}
		return "unreachable", err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Sprintf("http_%d", resp.StatusCode), fmt.Errorf("webhook answered %s", resp.Status)
	}
	return "", nil
}
