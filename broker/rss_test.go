package broker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/basic"
)

// rssChildEnv makes the test binary serve a broker instead of testing, so the parent can
// measure the broker's own peak RSS from outside.
const rssChildEnv = "REACHY_RSS_CHILD"

// TestPeakRSSUnderConcurrentUploads: 200 robots uploading 1.4 MB WAVs at once keep the
// broker under 400 MB peak RSS — turns are admitted before their audio is read and decoded.
// The broker runs in a subprocess; its VmHWM is read from /proc when the flood is over.
func TestPeakRSSUnderConcurrentUploads(t *testing.T) {
	if os.Getenv(rssChildEnv) != "" {
		serveForRSS(t)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/status")
	}
	if raceDetector {
		t.Skip("the race detector multiplies memory use: peak RSS is measured in a normal build")
	}
	const uploads, limitMB = 200, 400
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestPeakRSSUnderConcurrentUploads$", "-test.count=1")
	cmd.Env = append(os.Environ(), rssChildEnv+"=1", "REACHY_RSS_DIR="+t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	var addr, token string
	sc := bufio.NewScanner(stdout)
	for (addr == "" || token == "") && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
			addr = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "TOKEN "); ok {
			token = v
		}
	}
	if addr == "" || token == "" {
		t.Fatal("the broker subprocess did not start")
	}
	go io.Copy(io.Discard, stdout)
	before := vmHWM(t, cmd.Process.Pid)

	wav := noisyWAV(44100, 700_000) // 1.4 MB, 15.9 s at 44.1 kHz
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: uploads, MaxIdleConnsPerHost: uploads}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for range uploads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/v1/turns?audio=none", bytes.NewReader(wav))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "audio/wav")
			resp, err := client.Do(req)
			status := -1
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				status = resp.StatusCode
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("broker peak RSS %d MB (idle %d MB) after %d concurrent %d-byte uploads; statuses %v", peak>>20, before>>20, uploads, len(wav), statuses)
	// Admitted turns answer 200 (or 504 on a very loaded machine); the rest busy. A client
	// may see its connection reset when the broker answers busy without reading the upload.
	if statuses[http.StatusOK]+statuses[http.StatusGatewayTimeout] == 0 {
		t.Fatalf("no upload was admitted and decoded: %v", statuses)
	}
	if peak > limitMB<<20 {
		t.Fatalf("peak RSS %d MB, want < %d MB", peak>>20, limitMB)
	}
}

// serveForRSS is the subprocess: a broker on loopback with a speech-to-text stand-in that
// takes a moment, so uploads overlap.
func serveForRSS(t *testing.T) {
	dir := os.Getenv("REACHY_RSS_DIR")
	cfg, table, err := DevConfig("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := strconv.Atoi(os.Getenv("REACHY_RSS_DECODES")); err == nil {
		cfg.Limits.Decodes = n // to show what happens without admission
	}
	state, err := store.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Close()
	stt := &scriptedTranscriber{delay: 50 * time.Millisecond}
	stt.say("hey reachy what time is it")
	b, err := New(Deps{Config: cfg, Table: func() *intents.Table { return table }, State: state, Transcriber: stt,
		Handlers: basic.Handlers(time.Now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := state.CreateToken(context.Background(), "robot", []string{"turn"}, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(b.Handler(), cfg.Turn.Budget)
	go srv.Serve(l)
	fmt.Printf("ADDR %s\nTOKEN %s\n", l.Addr(), tok)
	io.Copy(io.Discard, os.Stdin) // the parent closes stdin when it is done
	srv.Close()
}

// noisyWAV is mono PCM16 at rate: a voiced-sounding tone with noise, so the no-speech
// guard lets it through to speech-to-text.
func noisyWAV(rate, frames int) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*frames))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(2 * rate), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*frames))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range frames {
		v := 0.3*math.Sin(2*math.Pi*220*float64(i)/float64(rate))*(0.5+0.5*math.Sin(2*math.Pi*3*float64(i)/float64(rate))) + 0.02*rng.NormFloat64()
		binary.Write(&b, binary.LittleEndian, int16(max(-1, min(1, v))*32767))
	}
	return b.Bytes()
}

// vmHWM is a process's peak resident set size in bytes.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}
