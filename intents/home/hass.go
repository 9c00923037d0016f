package home

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HomeAssistant speaks the subset of Home Assistant's REST API the house intents need:
// GET /api/states/<entity> and POST /api/services/<domain>/<service>.
type HomeAssistant struct {
	BaseURL string // e.g. http://homeassistant.local:8123
	Token   string // long-lived access token, from a file or the environment
	Client  *http.Client
}

func (h *HomeAssistant) client() *http.Client {
	c := &http.Client{}
	if h.Client != nil {
		copied := *h.Client
		c = &copied
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return errors.New("home assistant: redirect refused") }
	return c
}

func (h *HomeAssistant) do(ctx context.Context, method, path string, body any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	u, err := url.JoinPath(h.BaseURL, path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+h.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client().Do(req)
	if err != nil {
		var op *net.OpError
		if method != http.MethodGet && !(errors.As(err, &op) && op.Op == "dial") {
			// The request may have reached Home Assistant: whether it acted is not known.
			return nil, &UnknownError{fmt.Errorf("home assistant: %w", err)}
		}
		return nil, &TransientError{fmt.Errorf("home assistant: %w", err)}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode >= 500 || resp.StatusCode == 429:
		return nil, &TransientError{fmt.Errorf("home assistant: HTTP %d", resp.StatusCode)}
	case resp.StatusCode >= 300:
		return nil, fmt.Errorf("home assistant: HTTP %d", resp.StatusCode)
	}
	return b, nil
}

// AnsweringSince asks Home Assistant's API root (GET /api/, which answers "API running."):
// it answers now, within ctx (Recovering).
func (h *HomeAssistant) AnsweringSince(ctx context.Context, _ time.Time) bool {
	_, err := h.do(ctx, http.MethodGet, "/api/", nil)
	return err == nil
}

// GetEntity reads /api/states/<entity>.
func (h *HomeAssistant) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	b, err := h.do(ctx, http.MethodGet, "/api/states/"+url.PathEscape(entity), nil)
	if err != nil {
		return State{}, err
	}
	var st struct {
		State      string `json:"state"`
		Attributes struct {
			Temperature float64 `json:"temperature"`
		} `json:"attributes"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return State{}, fmt.Errorf("home assistant: bad state for %s", entity)
	}
	if st.State == "unavailable" || st.State == "unknown" {
		return State{}, &TransientError{fmt.Errorf("home assistant: %s is %s", entity, st.State)}
	}
	return State{On: st.State != "off", Temperature: int(st.Attributes.Temperature + 0.5)}, nil
}

// SetEntity calls turn_on / turn_off (and climate.set_temperature for a set point).
func (h *HomeAssistant) SetEntity(ctx context.Context, kind, entity string, s State) error {
	domain, _, _ := strings.Cut(entity, ".")
	if s.Temperature > 0 && domain == "climate" {
		_, err := h.do(ctx, http.MethodPost, "/api/services/climate/set_temperature",
			map[string]any{"entity_id": entity, "temperature": s.Temperature, "hvac_mode": "cool"})
		return err
	}
	service := "turn_off"
	if s.On {
		service = "turn_on"
	}
	_, err := h.do(ctx, http.MethodPost, "/api/services/"+domain+"/"+service, map[string]any{"entity_id": entity})
	return err
}

// CallService runs a configured service (custom home.service intents).
func (h *HomeAssistant) CallService(ctx context.Context, service, entity string, data map[string]string) error {
	domain, svc, ok := strings.Cut(service, ".")
	if !ok {
		return fmt.Errorf("home assistant: service %q is not domain.service", service)
	}
	body := map[string]any{}
	for k, v := range data {
		body[k] = v
	}
	if entity != "" {
		body["entity_id"] = entity
	}
	_, err := h.do(ctx, http.MethodPost, "/api/services/"+domain+"/"+svc, body)
	return err
}
