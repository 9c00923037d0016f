package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	c := addClientFlags(fs)
	conc := fs.Int("concurrency", 4, "requests in flight")
	fs.IntVar(conc, "c", 4, "short for --concurrency")
	turns := fs.Int("turns", 100, "total requests")
	wavPath := fs.String("wav", "", "send this WAV to /v1/turns (default: text to /v1/utterances)")
	text := fs.String("text", "what time is it", "sentence for /v1/utterances")
	if _, err := cliflags.ParseInterspersed(fs, args); err != nil {
		return err
	}
	if *conc < 1 || *turns < 1 || *turns > 100000 {
		return usagef("--concurrency >= 1, --turns 1..100000")
	}
	load := benchLoad{path: "/v1/utterances", ctype: "application/json"}
	if *wavPath != "" {
		b, err := os.ReadFile(*wavPath)
		if err != nil {
			return fmt.Errorf("--wav: %w", err)
		}
		load = benchLoad{path: "/v1/turns?audio=none", ctype: "audio/wav", body: b}
	} else {
		load.body, _ = json.Marshal(map[string]string{"text": *text})
	}
	if _, err := c.bearer(); err != nil {
		return err
	}
	if _, err := c.base(); err != nil {
		return err
	}
	r := drive(c, benchClient(*conc, 60*time.Second), load, *conc, *turns)
	fmt.Fprintf(stdout, "%d requests, concurrency %d, %s in %v (%.1f/s)\n", *turns, *conc, load.path, r.wall.Round(time.Millisecond), float64(*turns)/r.wall.Seconds())
	fmt.Fprintf(stdout, "ok %d  p50 %v  p95 %v  p99 %v\n", len(r.lat), r.pct(0.50).Round(time.Microsecond*10), r.pct(0.95).Round(time.Microsecond*10), r.pct(0.99).Round(time.Microsecond*10))
	failed := 0
	for code, n := range r.errs {
		fmt.Fprintf(stdout, "error %s: %d\n", code, n)
		failed += n
	}
	fmt.Fprintf(stdout, "total: %d ok, %d errors\n", len(r.lat), failed)
	if len(r.lat) == 0 && r.firstErr != nil {
		return r.firstErr
	}
	return nil
}

// benchLoad is the request a benchmark repeats.
type benchLoad struct {
	path, ctype string
	body        []byte
}

// benchResult is what a benchmark run measured.
type benchResult struct {
	wall     time.Duration
	lat      []time.Duration // successful requests, sorted
	errs     map[string]int  // failures by closed code ("transport": no answer)
	firstErr error
}

func (r benchResult) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
}

// drive sends turns requests with conc in flight and measures each.
func drive(c clientFlags, hc *http.Client, load benchLoad, conc, turns int) benchResult {
	var (
		mu sync.Mutex
		r  = benchResult{errs: map[string]int{}, lat: make([]time.Duration, 0, turns)}
		wg sync.WaitGroup
	)
	jobs := make(chan int)
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				status, resp, d, err := c.do(hc, http.MethodPost, load.path, load.ctype, load.body, "")
				mu.Lock()
				switch {
				case err != nil:
					r.errs["transport"]++
					if r.firstErr == nil {
						r.firstErr = err
					}
				case status != 200:
					var e api.ErrorBody
					json.Unmarshal(resp, &e)
					r.errs[e.Error.Code]++
				default:
					r.lat = append(r.lat, d)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range turns {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	r.wall = time.Since(start)
	slices.Sort(r.lat)
	return r
}
