package robot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Pose is a head pose: metres and radians.
type Pose struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Z     float64 `json:"z"`
	Roll  float64 `json:"roll"`
	Pitch float64 `json:"pitch"`
	Yaw   float64 `json:"yaw"`
}

// Antennas holds both antenna angles (radians) in our own, fixed order. The daemon is not
// consistent about the order (state reports (left, right), commands take [right, left]):
// wireAntennas and readAntennas are the only places that know.
type Antennas struct {
	Left, Right float64
}

// wireAntennas is the order the daemon's command routes expect: [right, left].
func wireAntennas(a Antennas) [2]float64 { return [2]float64{a.Right, a.Left} }

// readAntennas decodes the state route's order: (left, right).
func readAntennas(v [2]float64) Antennas { return Antennas{Left: v[0], Right: v[1]} }

// Limits the daemon's mechanics allow; every command is clamped to them here.
const (
	MaxHeadPitch   = 40 * math.Pi / 180
	MaxHeadRoll    = 40 * math.Pi / 180
	MaxHeadYaw     = math.Pi
	MaxBodyYaw     = 160 * math.Pi / 180
	MaxHeadBodyYaw = 65 * math.Pi / 180
)

// Clamp brings a pose and body yaw inside the robot's limits.
func Clamp(p Pose, bodyYaw float64) (Pose, float64) {
	c := func(v, m float64) float64 { return math.Max(-m, math.Min(m, v)) }
	p.Pitch, p.Roll, p.Yaw = c(p.Pitch, MaxHeadPitch), c(p.Roll, MaxHeadRoll), c(p.Yaw, MaxHeadYaw)
	bodyYaw = c(bodyYaw, MaxBodyYaw)
	p.Yaw = c(p.Yaw-bodyYaw, MaxHeadBodyYaw) + bodyYaw
	return p, bodyYaw
}

// State is the subset of /api/state/full the hub reads.
type State struct {
	ControlMode string
	HeadPose    Pose
	BodyYaw     float64
	Antennas    Antennas
}

// DOA is the direction of arrival: 0 left, π/2 front, π right.
type DOA struct {
	Angle          float64 `json:"angle"`
	SpeechDetected bool    `json:"speech_detected"`
}

// Daemon is a typed client for the closed subset of the Reachy Mini daemon's API the hub and
// the owner's console use. It is independent of the hub loop.
type Daemon struct {
	base    string
	http    *http.Client
	timeout time.Duration
}

// NewDaemon returns a client for the daemon at base (default http://127.0.0.1:8000).
func NewDaemon(base string, timeout time.Duration) *Daemon {
	if base == "" {
		base = "http://127.0.0.1:8000"
	}
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	return &Daemon{base: strings.TrimRight(base, "/"), timeout: timeout, http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return errors.New("daemon: redirect refused") }}}
}

// DaemonError is a non-2xx answer.
type DaemonError struct {
	Route  string
	Status int
}

func (e *DaemonError) Error() string { return fmt.Sprintf("daemon %s: HTTP %d", e.Route, e.Status) }

func (d *Daemon) call(ctx context.Context, method, route string, body any, out any) error {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.base+route, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return d.do(req, route, out)
}

func (d *Daemon) do(req *http.Request, route string, out any) error {
	resp, err := d.http.Do(req)
	if err != nil {
		return fmt.Errorf("daemon %s: %w", route, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return &DaemonError{Route: route, Status: resp.StatusCode}
	}
	if out != nil && len(b) > 0 && string(b) != "null" {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("daemon %s: bad answer: %w", route, err)
		}
	}
	return nil
}

// State reads the full state.
func (d *Daemon) State(ctx context.Context) (State, error) {
	var raw struct {
		ControlMode      string     `json:"control_mode"`
		HeadPose         Pose       `json:"head_pose"`
		BodyYaw          float64    `json:"body_yaw"`
		AntennasPosition [2]float64 `json:"antennas_position"`
	}
	err := d.call(ctx, http.MethodGet, "/api/state/full?with_head_pose=true&with_body_yaw=true&with_antenna_positions=true&with_control_mode=true", nil, &raw)
	return State{ControlMode: raw.ControlMode, HeadPose: raw.HeadPose, BodyYaw: raw.BodyYaw, Antennas: readAntennas(raw.AntennasPosition)}, err
}

// DOA reads the direction of arrival; ok is false when the daemon has none (null).
func (d *Daemon) DOA(ctx context.Context) (DOA, bool, error) {
	var v *DOA
	if err := d.call(ctx, http.MethodGet, "/api/state/doa", nil, &v); err != nil {
		return DOA{}, false, err
	}
	if v == nil {
		return DOA{}, false, nil
	}
	return *v, true, nil
}

// Goto is a smooth move. Note the daemon's quirk: a goto sent while another move runs is
// silently dropped but still answers with a uuid.
type Goto struct {
	Head     *Pose
	Antennas *Antennas
	BodyYaw  *float64
	Duration time.Duration
}

// Goto starts a move and returns its uuid.
func (d *Daemon) Goto(ctx context.Context, g Goto) (string, error) {
	if g.Duration <= 0 {
		return "", errors.New("goto: a duration is required")
	}
	body := map[string]any{"duration": g.Duration.Seconds()}
	bodyYaw := 0.0
	if g.BodyYaw != nil {
		bodyYaw = *g.BodyYaw
	}
	if g.Head != nil {
		p, by := Clamp(*g.Head, bodyYaw)
		body["head_pose"] = p
		if g.BodyYaw != nil {
			body["body_yaw"] = by
		}
	} else if g.BodyYaw != nil {
		_, by := Clamp(Pose{}, bodyYaw)
		body["body_yaw"] = by
	}
	if g.Antennas != nil {
		body["antennas"] = wireAntennas(*g.Antennas)
	}
	var out struct {
		UUID string `json:"uuid"`
	}
	err := d.call(ctx, http.MethodPost, "/api/move/goto", body, &out)
	return out.UUID, err
}

// SetTarget sets an immediate target; applied is false when the daemon ignored it because a
// move is running.
func (d *Daemon) SetTarget(ctx context.Context, head *Pose, antennas *Antennas) (bool, error) {
	body := map[string]any{}
	if head != nil {
		p, _ := Clamp(*head, 0)
		body["target_head_pose"] = p
	}
	if antennas != nil {
		body["target_antennas"] = wireAntennas(*antennas)
	}
	var out struct {
		Status string `json:"status"`
	}
	err := d.call(ctx, http.MethodPost, "/api/move/set_target", body, &out)
	return out.Status == "ok", err
}

// PlayMove plays a recorded move from a dataset and returns its uuid.
func (d *Daemon) PlayMove(ctx context.Context, dataset, move string) (string, error) {
	var out struct {
		UUID string `json:"uuid"`
	}
	err := d.call(ctx, http.MethodPost, "/api/move/play/recorded-move-dataset/"+dataset+"/"+url.PathEscape(move), nil, &out)
	return out.UUID, err
}

// WakeUp and GotoSleep play the built-in moves.
func (d *Daemon) WakeUp(ctx context.Context) (string, error) {
	return d.uuidPost(ctx, "/api/move/play/wake_up")
}

// GotoSleep plays the sleep move.
func (d *Daemon) GotoSleep(ctx context.Context) (string, error) {
	return d.uuidPost(ctx, "/api/move/play/goto_sleep")
}

func (d *Daemon) uuidPost(ctx context.Context, route string) (string, error) {
	var out struct {
		UUID string `json:"uuid"`
	}
	err := d.call(ctx, http.MethodPost, route, nil, &out)
	return out.UUID, err
}

// Running lists the uuids of running moves.
func (d *Daemon) Running(ctx context.Context) ([]string, error) {
	var out []string
	err := d.call(ctx, http.MethodGet, "/api/move/running", nil, &out)
	return out, err
}

// Stop stops a move the caller started. The daemon answers 500 for a uuid it does not know
// (an unhandled KeyError), which for a move that already ended is not an error here.
func (d *Daemon) Stop(ctx context.Context, uuid string) error {
	err := d.call(ctx, http.MethodPost, "/api/move/stop", map[string]string{"uuid": uuid}, nil)
	var de *DaemonError
	if errors.As(err, &de) && de.Status == http.StatusInternalServerError {
		return nil
	}
	return err
}

// UploadSound uploads a WAV and returns the name to play it by.
func (d *Daemon) UploadSound(ctx context.Context, name string, wav []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		return "", err
	}
	fw.Write(wav)
	mw.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.base+"/api/media/sounds/upload", &buf)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	var out struct {
		Status string `json:"status"`
		Path   string `json:"path"`
	}
	if err := d.do(req, "/api/media/sounds/upload", &out); err != nil {
		return "", err
	}
	if out.Path == "" {
		return name, nil
	}
	return out.Path, nil
}

// PlaySound plays an uploaded sound through the robot's speaker.
func (d *Daemon) PlaySound(ctx context.Context, file string) error {
	return d.call(ctx, http.MethodPost, "/api/media/play_sound", map[string]string{"file": file}, nil)
}

// StopSound interrupts playback (barge-in).
func (d *Daemon) StopSound(ctx context.Context) error {
	return d.call(ctx, http.MethodPost, "/api/media/stop_sound", nil, nil)
}

// Wobbling turns the audio-driven head sway on or off.
func (d *Daemon) Wobbling(ctx context.Context, on bool) error {
	route := "/api/media/wobbling/disable"
	if on {
		route = "/api/media/wobbling/enable"
	}
	return d.call(ctx, http.MethodPost, route, nil, nil)
}

// Volume reads the speaker volume (0-100).
func (d *Daemon) Volume(ctx context.Context) (int, error) {
	var out struct {
		Volume int `json:"volume"`
	}
	err := d.call(ctx, http.MethodGet, "/api/volume/current", nil, &out)
	return out.Volume, err
}

// SetVolume sets the speaker volume (the daemon plays a test sound).
func (d *Daemon) SetVolume(ctx context.Context, v int) error {
	if v < 0 || v > 100 {
		return fmt.Errorf("volume %d is outside 0..100", v)
	}
	return d.call(ctx, http.MethodPost, "/api/volume/set", map[string]int{"volume": v}, nil)
}

// Status reads the daemon's status (version).
func (d *Daemon) Status(ctx context.Context) (string, error) {
	var out struct {
		Version string `json:"version"`
	}
	err := d.call(ctx, http.MethodGet, "/api/daemon/status", nil, &out)
	return out.Version, err
}

// ReleaseMedia asks the daemon to hand the camera and audio devices to another program (the
// live call's pipelines); AcquireMedia takes them back.
func (d *Daemon) ReleaseMedia(ctx context.Context) error {
	return d.call(ctx, http.MethodPost, "/api/media/release", nil, nil)
}

// AcquireMedia gives the camera and audio devices back to the daemon after a call.
func (d *Daemon) AcquireMedia(ctx context.Context) error {
	return d.call(ctx, http.MethodPost, "/api/media/acquire", nil, nil)
}
