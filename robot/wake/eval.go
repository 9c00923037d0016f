package wake

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
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
	Sensitivity float64          `json:"sensitivity,omitempty"`
	Threshold   float64          `json:"threshold_log10_per_phone,omitempty"`
	PhoneLoop   int              `json:"phone_loop_exp,omitempty"`
	TopN        int              `json:"topn,omitempty"`
	Denoised    bool             `json:"denoised,omitempty"`
	Recall      map[string]Tally `json:"recall"`          // by condition: clean, 20dB, 10dB, 5dB
	RecallNoise map[string]Tally `json:"recall_by_noise"` // by noise and SNR: pink10, babble5...
	// Negatives by category (household, near-miss, long): accepts out of utterances.
	Negatives       map[string]Tally   `json:"negatives"`
	NegativeSecs    map[string]float64 `json:"negative_seconds_by_category"`
	FalseAccepts    int                `json:"false_accepts"`
	NegativeSeconds float64            `json:"negative_seconds"`
	AudioSeconds    float64            `json:"audio_seconds"`
	SpotSeconds     float64            `json:"spot_seconds"` // CPU time of the spotting threads, added up
	Misses          []string           `json:"misses,omitempty"`
	Accepts         []string           `json:"accepts,omitempty"`
}

func newReport() EvalReport {
	return EvalReport{Recall: map[string]Tally{}, RecallNoise: map[string]Tally{}, Negatives: map[string]Tally{}, NegativeSecs: map[string]float64{}}
}

// add counts one clip's verdict.
func (r *EvalReport) add(c EvalClip, ok bool, samples int) {
	sec := float64(samples) / SampleRate
	r.AudioSeconds += sec
	if c.Positive {
		count(r.Recall, condition(c), ok)
		count(r.RecallNoise, noiseCondition(c), ok)
		if !ok {
			r.Misses = append(r.Misses, c.File)
		}
		return
	}
	r.NegativeSeconds += sec
	r.NegativeSecs[c.Category] += sec
	t := r.Negatives[c.Category]
	t.Total++
	if ok {
		t.Hits++
		r.FalseAccepts++
		r.Accepts = append(r.Accepts, fmt.Sprintf("%s (%s: %q)", c.File, c.Category, c.Text))
	}
	r.Negatives[c.Category] = t
}

func count(m map[string]Tally, k string, ok bool) {
	t := m[k]
	t.Total++
	if ok {
		t.Hits++
	}
	m[k] = t
}

// FAPerHour is false accepts per hour of negative speech.
func (r EvalReport) FAPerHour() float64 {
	if r.NegativeSeconds == 0 {
		return 0
	}
	return float64(r.FalseAccepts) / (r.NegativeSeconds / 3600)
}

// negativesOf adds up the false accepts and the seconds of the named categories.
func (r EvalReport) negativesOf(cats ...string) (accepts int, secs float64) {
	for _, c := range cats {
		accepts += r.Negatives[c].Hits
		secs += r.NegativeSecs[c]
	}
	return accepts, secs
}

// FAPerHourOf is false accepts per hour of the named categories of negative speech.
func (r EvalReport) FAPerHourOf(cats ...string) float64 {
	n, secs := r.negativesOf(cats...)
	if secs == 0 {
		return 0
	}
	return float64(n) / (secs / 3600)
}

// FAUpperBound is the false-accept rate per hour of the named categories that the set rules
// out at 95% confidence: the rate at which seeing no more false accepts than it did would
// happen only 5% of the time (Poisson). With none in T hours it is about 3/T: a set must
// hold 3 hours of such speech before it can show a rate below 1 per hour.
func (r EvalReport) FAUpperBound(cats ...string) float64 {
	k, secs := r.negativesOf(cats...)
	if secs == 0 {
		return math.Inf(1)
	}
	// P(X <= k; lambda) falls as lambda grows: bisect for where it is 0.05.
	atMost := func(lambda float64) float64 {
		term, sum := math.Exp(-lambda), 0.0
		for i := 0; i <= k; i++ {
			sum += term
			term *= lambda / float64(i+1)
		}
		return sum
	}
	lo, hi := 0.0, float64(k)+10+5*math.Sqrt(float64(k)+1)
	for range 100 {
		if mid := (lo + hi) / 2; atMost(mid) > 0.05 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi / (secs / 3600)
}

// Ordinary speech is what a wake word is specified on: household sentences, long talk and
// overheard commands to the home. Near misses are deliberately confusable sentences ("hey
// ricky, ...").
var (
	OrdinarySpeech = []string{"household", "long", "overheard"}
	NearMisses     = []string{"near-miss"}
)

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

func noiseCondition(c EvalClip) string {
	if c.Noise == "clean" {
		return "clean"
	}
	return fmt.Sprintf("%s%d", c.Noise, c.SNR)
}

// LoadEvalSet reads the manifest of a set Generate wrote into dir.
func LoadEvalSet(dir string) ([]EvalClip, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("%s holds no evaluation set (generate one with: reachyctl wake gen %s): %w", dir, dir, err)
	}
	var clips []EvalClip
	if err := json.Unmarshal(b, &clips); err != nil {
		return nil, fmt.Errorf("%s/manifest.json: %w", dir, err)
	}
	return clips, nil
}

// maxClip bounds one clip of a set: the longest, the paragraph after a TV lead-in, is ~32 s.
const maxClip = 2 * time.Minute

func readClip(dir string, c EvalClip) ([]float32, error) {
	wav, err := os.ReadFile(filepath.Join(dir, c.File))
	if err != nil {
		return nil, err
	}
	clip, err := speech.DecodeWAV(wav, maxClip) // the long paragraph after a TV lead-in runs past 30 s
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.File, err)
	}
	return clip.Samples, nil
}

// Evaluate runs s over the clips of a set Generate wrote into dir.
func Evaluate(ctx context.Context, s Spotter, dir string, clips []EvalClip) (EvalReport, error) {
	return EvaluateWith(ctx, []Spotter{s}, dir, clips)
}

// EvaluateWith runs the clips through several spotters at once, one goroutine each (clip i
// goes to spotter i mod len(spotters)). Each utterance is decoded on its own (Sphinx resets
// the engine's stream for every call), so the report is the same for any number of them.
func EvaluateWith(ctx context.Context, spotters []Spotter, dir string, clips []EvalClip) (EvalReport, error) {
	vs, err := Verdicts(ctx, spotters, dir, clips)
	if err != nil {
		return newReport(), err
	}
	return Report(clips, vs), nil
}

// Verdict is what a spotter said of one clip and what it cost.
type Verdict struct {
	OK    bool
	Score float64 // the best score, heard or not
	// Needed is what the score had to reach; Start and End where the spot lies (samples).
	Needed     float64 `json:",omitempty"`
	Start, End int     `json:",omitempty"`
	Samples    int
	// Secs is the CPU time of the spotting thread (wall time off Linux): one core's work,
	// whatever else the machine is doing.
	Secs float64
}

// Verdicts runs the clips through the spotters (as EvaluateWith) and returns each clip's.
func Verdicts(ctx context.Context, spotters []Spotter, dir string, clips []EvalClip) ([]Verdict, error) {
	got := make([]Verdict, len(clips))
	errs := make([]error, len(clips))
	var wg sync.WaitGroup
	for w, s := range spotters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The engines run on the calling thread: its CPU time is the spotting's cost.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := w; i < len(clips); i += len(spotters) {
				x, err := readClip(dir, clips[i])
				if err != nil {
					errs[i] = err
					return
				}
				start, cpu := time.Now(), threadCPU()
				d, ok, err := s.Spot(ctx, x)
				secs := threadCPU() - cpu
				if secs <= 0 {
					secs = time.Since(start).Seconds()
				}
				got[i] = Verdict{OK: ok, Score: d.Score, Needed: d.Needed, Start: d.Start, End: d.End, Samples: len(x), Secs: secs}
				if err != nil {
					errs[i] = fmt.Errorf("%s: %w", clips[i].File, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i := range clips {
		if errs[i] != nil {
			return nil, errs[i]
		}
	}
	return got, nil
}

// Report adds up the verdicts of the clips.
func Report(clips []EvalClip, vs []Verdict) EvalReport {
	r := newReport()
	for i, c := range clips {
		r.SpotSeconds += vs[i].Secs
		r.add(c, vs[i].OK, vs[i].Samples)
	}
	return r
}

// CombineVerdicts is what running both engines on every clip would say: addressed when
// either heard it (all false) or only when both did (all true); the cost is both engines'.
func CombineVerdicts(a, b []Verdict, all bool) []Verdict {
	out := make([]Verdict, len(a))
	for i := range a {
		ok := a[i].OK || b[i].OK
		if all {
			ok = a[i].OK && b[i].OK
		}
		out[i] = Verdict{OK: ok, Samples: a[i].Samples, Secs: a[i].Secs + b[i].Secs}
	}
	return out
}

// Print writes the report for a person.
func (r EvalReport) Print(w io.Writer) {
	if r.Sensitivity > 0 {
		den := "steady noise left in"
		if r.Denoised {
			den = "steady noise taken out"
		}
		fmt.Fprintf(w, "sensitivity %.2f: threshold %.2f per phone (decimal log), phone loop 1e-%d, %d Gaussians, %s\n", r.Sensitivity, r.Threshold, r.PhoneLoop, r.TopN, den)
	}
	for _, c := range sortedConds(r.Recall) {
		t := r.Recall[c]
		fmt.Fprintf(w, "recall %-6s %5.1f%%  (%d/%d)\n", c, 100*t.Rate(), t.Hits, t.Total)
	}
	var by []string
	for _, c := range sortedConds(r.RecallNoise) {
		if t := r.RecallNoise[c]; c != "clean" {
			by = append(by, fmt.Sprintf("%s %.0f%%", c, 100*t.Rate()))
		}
	}
	if len(by) > 0 {
		fmt.Fprintf(w, "  by noise: %s\n", strings.Join(by, ", "))
	}
	fmt.Fprintf(w, "false accepts %d in %.2f h of negative speech = %.1f per hour\n", r.FalseAccepts, r.NegativeSeconds/3600, r.FAPerHour())
	cats := make([]string, 0, len(r.Negatives))
	for c := range r.Negatives {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		t := r.Negatives[c]
		fmt.Fprintf(w, "  %-10s %4d of %4d utterances (%4.1f%%) = %.1f per hour\n", c, t.Hits, t.Total, 100*t.Rate(), r.FAPerHourOf(c))
	}
	_, ordinary := r.negativesOf(OrdinarySpeech...)
	fmt.Fprintf(w, "  ordinary speech (household, long, overheard): %.1f per hour (below %.2f at 95%% confidence, %.2f h); near misses: %.1f per hour\n",
		r.FAPerHourOf(OrdinarySpeech...), r.FAUpperBound(OrdinarySpeech...), ordinary/3600, r.FAPerHourOf(NearMisses...))
	fmt.Fprintf(w, "real-time factor %.3f (%.0f s of audio in %.1f s, one core)\n", r.RTF(), r.AudioSeconds, r.SpotSeconds)
	fmt.Fprintln(w, "synthetic voices are not people: expect different figures in a real room")
}

// PrintSweep writes one line per report: the curve to choose a sensitivity from.
func PrintSweep(w io.Writer, reps []EvalReport) {
	if len(reps) == 0 {
		return
	}
	conds := sortedConds(reps[0].Recall)
	fmt.Fprintf(w, "%5s %6s %5s", "sens", "thr", "plp")
	for _, c := range conds {
		fmt.Fprintf(w, " %6s", c)
	}
	fmt.Fprintf(w, " %8s %8s %8s %8s\n", "FA/h", "ordin/h", "near/h", "near/utt")
	for _, r := range reps {
		fmt.Fprintf(w, "%5.2f %6.2f %5d", r.Sensitivity, r.Threshold, r.PhoneLoop)
		for _, c := range conds {
			fmt.Fprintf(w, " %5.1f%%", 100*r.Recall[c].Rate())
		}
		fmt.Fprintf(w, " %8.1f %8.1f %8.1f %7.1f%%\n", r.FAPerHour(), r.FAPerHourOf(OrdinarySpeech...), r.FAPerHourOf(NearMisses...), 100*r.Negatives["near-miss"].Rate())
	}
	fmt.Fprintf(w, "recall by condition; false accepts per hour of all negative speech, of ordinary speech (household, long, overheard), of near misses; RTF %.3f\n", reps[0].RTF())
	fmt.Fprintln(w, "synthetic voices are not people: expect different figures in a real room")
}

func sortedConds(m map[string]Tally) []string {
	conds := make([]string, 0, len(m))
	for c := range m {
		conds = append(conds, c)
	}
	sort.Slice(conds, func(i, j int) bool {
		if a, b := condRank(conds[i]), condRank(conds[j]); a != b {
			return a < b
		}
		return conds[i] < conds[j]
	})
	return conds
}

func condRank(c string) int {
	if c == "clean" {
		return -1000
	}
	db := 0
	if i := strings.IndexAny(c, "0123456789"); i >= 0 {
		fmt.Sscanf(c[i:], "%d", &db)
	}
	return -db
}
