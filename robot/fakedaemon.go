package robot

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// Call is one request the fake daemon received.
type Call struct {
	Time   time.Time       `json:"time"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// FakeDaemon is an in-process stand-in for the Reachy Mini daemon: it records every call and
// reproduces the documented quirks — a goto sent while a move runs is dropped but still gets a
// uuid, set_target is ignored while a move runs, stopping an unknown uuid answers 500, and
// unknown recorded moves answer 404. Moves "run" for their duration.
type FakeDaemon struct {
	mu      sync.Mutex
	calls   []Call
	running map[string]time.Time // uuid -> end
	sounds  map[string][]byte
	playing string
	volume  int
	moves   map[string][]string // dataset -> moves
	Now     func() time.Time
}

// NewFakeDaemon returns a fake with the vendor's emotion and dance libraries' common moves.
func NewFakeDaemon() *FakeDaemon {
	return &FakeDaemon{running: map[string]time.Time{}, sounds: map[string][]byte{}, volume: 60, Now: time.Now,
		moves: map[string][]string{
			"pollen-robotics/reachy-mini-emotions-library": {"happy", "sad", "surprised", "curious", "sleepy", "yes", "no", "celebrate"},
			"pollen-robotics/reachy-mini-dances-library":   {"groovy", "simple_nod", "side_to_side"},
		}}
}

// Calls returns what was received so far.
func (f *FakeDaemon) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls...)
}

// Sound returns an uploaded sound's bytes.
func (f *FakeDaemon) Sound(name string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sounds[name]
}

func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (f *FakeDaemon) busy() bool {
	now := f.Now()
	for id, end := range f.running {
		if now.After(end) {
			delete(f.running, id)
		}
	}
	return len(f.running) > 0
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// serveSDK accepts the /ws/sdk channel and records each JSON command as a call.
func (f *FakeDaemon) serveSDK(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	for {
		var msg json.RawMessage
		if err := wsjson.Read(r.Context(), c, &msg); err != nil {
			return
		}
		f.mu.Lock()
		f.calls = append(f.calls, Call{Time: f.Now(), Method: "WS", Path: "/ws/sdk", Body: msg})
		f.mu.Unlock()
		wsjson.Write(r.Context(), c, map[string]string{"status": "ok"})
	}
}

// ServeHTTP implements the daemon's routes the hub uses.
func (f *FakeDaemon) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/ws/sdk" {
		f.serveSDK(w, r)
		return
	}
	var body []byte
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		body, _ = io.ReadAll(io.LimitReader(r.Body, 1<<20))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := Call{Time: f.Now(), Method: r.Method, Path: r.URL.Path}
	if json.Valid(body) {
		c.Body = body
	}
	f.calls = append(f.calls, c)
	p := r.URL.Path
	switch {
	case p == "/api/state/full":
		reply(w, 200, map[string]any{"control_mode": "enabled", "head_pose": Pose{}, "body_yaw": 0, "antennas_position": [2]float64{0.1, -0.1}})
	case p == "/api/state/doa":
		reply(w, 200, DOA{Angle: 1.2, SpeechDetected: true})
	case p == "/api/move/goto":
		var g struct {
			Duration float64 `json:"duration"`
		}
		json.Unmarshal(body, &g)
		id := newUUID()
		if !f.busy() { // quirk: dropped silently while another move runs, uuid still returned
			f.running[id] = f.Now().Add(time.Duration(g.Duration * float64(time.Second)))
		}
		reply(w, 200, map[string]string{"uuid": id})
	case p == "/api/move/set_target":
		if f.busy() {
			reply(w, 200, map[string]string{"status": "ignored", "reason": "move_running"})
			return
		}
		reply(w, 200, map[string]string{"status": "ok"})
	case p == "/api/move/play/wake_up" || p == "/api/move/play/goto_sleep":
		id := newUUID()
		f.running[id] = f.Now().Add(2 * time.Second)
		reply(w, 200, map[string]string{"uuid": id})
	case strings.HasPrefix(p, "/api/move/play/recorded-move-dataset/"):
		rest := strings.TrimPrefix(p, "/api/move/play/recorded-move-dataset/")
		i := strings.LastIndex(rest, "/")
		if i < 0 || !slices.Contains(f.moves[rest[:i]], rest[i+1:]) {
			reply(w, 404, map[string]string{"detail": "move not found"})
			return
		}
		id := newUUID()
		f.running[id] = f.Now().Add(1500 * time.Millisecond)
		reply(w, 200, map[string]string{"uuid": id})
	case p == "/api/move/running":
		f.busy()
		ids := []string{}
		for id := range f.running {
			ids = append(ids, id)
		}
		reply(w, 200, ids)
	case p == "/api/move/stop":
		var s struct {
			UUID string `json:"uuid"`
		}
		json.Unmarshal(body, &s)
		if _, ok := f.running[s.UUID]; !ok {
			http.Error(w, "Internal Server Error", 500) // quirk: unhandled KeyError
			return
		}
		delete(f.running, s.UUID)
		reply(w, 200, map[string]string{"status": "stopped"})
	case p == "/api/media/sounds/upload":
		file, hdr, err := r.FormFile("file")
		if err != nil {
			reply(w, 400, map[string]string{"detail": "no file"})
			return
		}
		b, _ := io.ReadAll(io.LimitReader(file, 25<<20))
		if len(b) < 12 || string(b[:4]) != "RIFF" {
			reply(w, 400, map[string]string{"detail": "not an audio file"})
			return
		}
		f.sounds[hdr.Filename] = b
		reply(w, 200, map[string]string{"status": "ok", "path": hdr.Filename})
	case p == "/api/media/play_sound":
		var s struct {
			File string `json:"file"`
		}
		json.Unmarshal(body, &s)
		if _, ok := f.sounds[s.File]; !ok {
			reply(w, 404, map[string]string{"detail": "no such sound"})
			return
		}
		f.playing = s.File
		reply(w, 200, map[string]string{"status": "playing"})
	case p == "/api/media/stop_sound":
		f.playing = ""
		reply(w, 200, map[string]string{"status": "stopped"})
	case p == "/api/media/release" || p == "/api/media/acquire":
		reply(w, 200, map[string]string{"status": "ok"})
	case p == "/api/media/wobbling/enable" || p == "/api/media/wobbling/disable":
		reply(w, 200, map[string]string{"status": "ok"})
	case p == "/api/volume/current":
		reply(w, 200, map[string]int{"volume": f.volume})
	case p == "/api/volume/set":
		var v struct {
			Volume int `json:"volume"`
		}
		json.Unmarshal(body, &v)
		f.volume = v.Volume
		reply(w, 200, map[string]int{"volume": f.volume})
	case p == "/api/daemon/status":
		reply(w, 200, map[string]string{"version": "1.10.0-fake", "wlan_ip": "127.0.0.1"})
	default:
		reply(w, 404, map[string]string{"detail": "Not Found"})
	}
}
