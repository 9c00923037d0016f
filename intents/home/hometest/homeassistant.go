package hometest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// HomeAssistant is a fake Home Assistant serving the REST subset the broker uses (GET /api/,
// GET /api/states/<entity>, POST /api/services/<domain>/<service>) on a loopback port, that
// can hang: while hung, every request is held unanswered until Answer (or until its client
// gives up), as a Home Assistant stuck on its database does.
type HomeAssistant struct {
	URL   string
	Token string

	mu     sync.Mutex
	states map[string]string
	sets   map[string]int
	hung   chan struct{} // non-nil while hung; closed by Answer
}

// StartHomeAssistant serves the fake until the test ends; its token is "ha-token".
func StartHomeAssistant(t testing.TB) *HomeAssistant {
	h := &HomeAssistant{Token: "ha-token", states: map[string]string{}, sets: map[string]int{}}
	srv := httptest.NewServer(h)
	h.URL = srv.URL
	t.Cleanup(func() {
		h.Answer()
		srv.Close()
	})
	return h
}

// Hang holds every request from now on unanswered.
func (h *HomeAssistant) Hang() {
	h.mu.Lock()
	if h.hung == nil {
		h.hung = make(chan struct{})
	}
	h.mu.Unlock()
}

// Answer ends a hang: the requests held are answered, and the next ones at once.
func (h *HomeAssistant) Answer() {
	h.mu.Lock()
	if h.hung != nil {
		close(h.hung)
		h.hung = nil
	}
	h.mu.Unlock()
}

// Sets is how many service calls reached an entity (answered or not).
func (h *HomeAssistant) Sets(entity string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sets[entity]
}

// State is an entity's state ("off" until set).
func (h *HomeAssistant) State(entity string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.states[entity]; ok {
		return s
	}
	return "off"
}

func (h *HomeAssistant) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+h.Token {
		http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
		return
	}
	var body map[string]any
	if r.Method == http.MethodPost {
		json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body)
	}
	h.mu.Lock()
	hung := h.hung
	e, _ := body["entity_id"].(string)
	if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/services/") {
		// Received: a hung Home Assistant may still act on it later, or not; here it acts.
		h.sets[e]++
		switch {
		case strings.HasSuffix(r.URL.Path, "/turn_on"):
			h.states[e] = "on"
		case strings.HasSuffix(r.URL.Path, "/turn_off"):
			h.states[e] = "off"
		}
	}
	h.mu.Unlock()
	if hung != nil {
		select {
		case <-hung:
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case r.URL.Path == "/api/":
		json.NewEncoder(w).Encode(map[string]string{"message": "API running."})
	case strings.HasPrefix(r.URL.Path, "/api/states/"):
		id := strings.TrimPrefix(r.URL.Path, "/api/states/")
		json.NewEncoder(w).Encode(map[string]any{"entity_id": id, "state": h.State(id), "attributes": map[string]any{}})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/services/"):
		w.Write([]byte("[]"))
	default:
		http.NotFound(w, r)
	}
}
