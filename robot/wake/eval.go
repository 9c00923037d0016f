package wake

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// Tally is hits out of a total.
type Tally struct {
	Hits  int `json:"hits"`
	Total int `json:"total"`
}

// Rate is Hits/Total (0 when empty).
func (t Tally) Rate() float64 {
	if t.Total == 0 {
		return 0
	}
	return float64(t.Hits) / float64(t.Total)
}

// EvalReport is what a spotter did on a generated set.
type EvalReport struct {
	Recall          map[string]Tally `json:"recall"` // by condition: clean, 20dB, 10dB, 5dB
	FalseAccepts    int              `json:"false_accepts"`
	FAByCategory    map[string]int   `json:"false_accepts_by_category"`
	NegativeSeconds float64          `json:"negative_seconds"`
	AudioSeconds    float64          `json:"audio_seconds"`
	SpotSeconds     float64          `json:"spot_seconds"` // wall time inside Spot
	Misses          []string         `json:"misses,omitempty"`
	Accepts         []string         `json:"accepts,omitempty"`
}

// FAPerHour is false accepts per hour of negative speech.
func (r EvalReport) FAPerHour() float64 {
	if r.NegativeSeconds == 0 {
		return 0
	}
	return float64(r.FalseAccepts) / (r.NegativeSeconds / 3600)
}

// RTF is the real-time factor: seconds of spotting per second of audio.
func (r EvalReport) RTF() float64 {
	if r.AudioSeconds == 0 {
		return 0
	}
	return r.SpotSeconds / r.AudioSeconds
}

func condition(c EvalClip) string {
	if c.Noise == "clean" {
		return "clean"
	}
	return fmt.Sprintf("%ddB", c.SNR)
}

// Evaluate runs s over every clip of a set Generate wrote into dir.
func Evaluate(ctx context.Context, s Spotter, dir string) (EvalReport, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return EvalReport{}, fmt.Errorf("%s holds no evaluation set (generate one with: reachyctl wake gen %s): %w", dir, dir, err)
	}
	var clips []EvalClip
	if err := json.Unmarshal(b, &clips); err != nil {
		return EvalReport{}, fmt.Errorf("%s/manifest.json: %w", dir, err)
	}
	r := EvalReport{Recall: map[string]Tally{}, FAByCategory: map[string]int{}}
	for _, c := range clips {
		wav, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			return r, err
		}
		clip, err := speech.DecodeWAV(wav, 0)
		if err != nil {
			return r, fmt.Errorf("%s: %w", c.File, err)
		}
		start := time.Now()
		_, ok, err := s.Spot(ctx, clip.Samples)
		r.SpotSeconds += time.Since(start).Seconds()
		if err != nil {
			return r, fmt.Errorf("%s: %w", c.File, err)
		}
		sec := float64(len(clip.Samples)) / SampleRate
		r.AudioSeconds += sec
		if c.Positive {
			t := r.Recall[condition(c)]
			t.Total++
			if ok {
				t.Hits++
			} else {
				r.Misses = append(r.Misses, c.File)
			}
			r.Recall[condition(c)] = t
			continue
		}
		r.NegativeSeconds += sec
		if ok {
			r.FalseAccepts++
			r.FAByCategory[c.Category]++
			r.Accepts = append(r.Accepts, fmt.Sprintf("%s (%s: %q)", c.File, c.Category, c.Text))
		}
	}
	return r, nil
}

// Print writes the report for a person.
func (r EvalReport) Print(w io.Writer) {
	conds := make([]string, 0, len(r.Recall))
	for c := range r.Recall {
		conds = append(conds, c)
	}
	sort.Slice(conds, func(i, j int) bool { return condRank(conds[i]) < condRank(conds[j]) })
	for _, c := range conds {
		t := r.Recall[c]
		fmt.Fprintf(w, "recall %-6s %5.1f%%  (%d/%d)\n", c, 100*t.Rate(), t.Hits, t.Total)
	}
	var cats []string
	for c, n := range r.FAByCategory {
		cats = append(cats, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(cats)
	fmt.Fprintf(w, "false accepts %d in %.2f h of negative speech = %.1f per hour", r.FalseAccepts, r.NegativeSeconds/3600, r.FAPerHour())
	if len(cats) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(cats, ", "))
	}
	fmt.Fprintf(w, "\nreal-time factor %.3f (%.0f s of audio in %.1f s, one core)\n", r.RTF(), r.AudioSeconds, r.SpotSeconds)
	fmt.Fprintln(w, "synthetic voices (espeak-ng) are not people: expect different figures in a real room")
}

func condRank(c string) int {
	if c == "clean" {
		return -1000
	}
	var db int
	fmt.Sscanf(c, "%ddB", &db)
	return -db
}
