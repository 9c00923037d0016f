package home

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/reachy-broker/reachy-broker/intents"
)

// ServiceCaller runs a Home Assistant service.
type ServiceCaller interface {
	CallService(ctx context.Context, service, entity string, data map[string]string) error
}

// Publisher sends an MQTT message.
type Publisher interface {
	Publish(ctx context.Context, topic string, payload []byte) error
}

// Service is the handler of config-file intents with handler type home.service: a Home
// Assistant service call, or an MQTT publish when the binding names a topic.
type Service struct {
	HA   ServiceCaller // nil: no Home Assistant configured
	MQTT Publisher     // nil: no MQTT configured
}

// Handle carries out the binding, once, under the turn's deadline.
func (s Service) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	b := c.Intent.Handler
	var err error
	switch {
	case b.Topic != "":
		if s.MQTT == nil {
			return intents.Answer{}, errors.New("home.service: no MQTT broker is configured")
		}
		err = s.MQTT.Publish(ctx, b.Topic, []byte(b.Payload))
	default:
		if s.HA == nil {
			return intents.Answer{}, errors.New("home.service: no Home Assistant is configured")
		}
		err = s.HA.CallService(ctx, b.Service, b.Entity, b.Extra)
	}
	switch {
	case err == nil:
	case Unknown(err):
		// Sent, never confirmed: it may have happened. It is not sent again.
		return intents.Answer{Reply: ReplyUnknown, Expression: intents.ExpressionSorry, Outcome: intents.OutcomeUnknown}, nil
	case ctx.Err() != nil:
		return intents.Answer{}, ctx.Err()
	default:
		return intents.Answer{Reply: "Sorry, the house isn't answering right now.", Expression: intents.ExpressionSorry, Outcome: intents.OutcomeFailed}, nil
	}
	reply := b.Reply
	if reply == "" {
		reply = "Done."
	}
	return intents.Answer{Reply: reply, Expression: intents.ExpressionHappy}, nil
}

// Webhook is the handler of config-file intents with handler type webhook: it POSTs
// {"intent": name, "args": {...}} to the configured URL on the home side, never following a
// redirect, and speaks the binding's reply (or a short "Done.").
type Webhook struct {
	Client *http.Client
}

// Handle posts the call.
func (w Webhook) Handle(ctx context.Context, c intents.Call) (intents.Answer, error) {
	b := c.Intent.Handler
	timeout := 3 * time.Second
	if b.Timeout != "" {
		if d, err := time.ParseDuration(b.Timeout); err == nil && d > 0 {
			timeout = d
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, _ := json.Marshal(map[string]any{"intent": c.Intent.Name, "args": c.Args, "device": c.Device})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.URL, bytes.NewReader(body))
	if err != nil {
		return intents.Answer{}, fmt.Errorf("webhook: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	hc := &http.Client{}
	if w.Client != nil {
		copied := *w.Client
		hc = &copied
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return errors.New("webhook: redirect refused") }
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			err = fmt.Errorf("webhook: HTTP %d", resp.StatusCode)
		}
	}
	if err != nil {
		outcome := intents.OutcomeFailed
		var op *net.OpError
		if resp == nil && !(errors.As(err, &op) && op.Op == "dial") {
			outcome = intents.OutcomeUnknown // the request may have reached the webhook
		}
		reply := "Sorry, that didn't work."
		if outcome == intents.OutcomeUnknown {
			reply = ReplyUnknown // it may have happened: never said as a failure
		}
		return intents.Answer{Reply: reply, Expression: intents.ExpressionSorry, Outcome: outcome}, nil
	}
	reply := b.Reply
	if reply == "" {
		reply = "Done."
	}
	return intents.Answer{Reply: reply, Expression: intents.ExpressionHappy}, nil
}
