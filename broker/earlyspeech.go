package broker

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/speech"
)

// earlySpeech synthesizes the sentences of a streamed answer while the rest is still arriving.
// Each sentence passes the boundary (speakable) first; if the redactor finds anything in
// one, early speech stops and the whole (redacted) reply is synthesized at the end as usual. The early audio is used
// only if the final redacted reply begins with exactly the sentences spoken early.
type earlySpeech struct {
	b     *Broker
	ctx   context.Context
	queue chan string
	done  chan struct{}

	mu      sync.Mutex
	texts   []string
	samples []float32
	broken  bool
	closed  bool
	once    sync.Once
}

func (b *Broker) newEarlySpeech(ctx context.Context, t *turn) *earlySpeech {
	e := &earlySpeech{b: b, ctx: ctx, queue: make(chan string, 32), done: make(chan struct{})}
	go e.run()
	return e
}

func (e *earlySpeech) add(sentence string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return // the turn moved on (a handler cut at its deadline may still be streaming)
	}
	select {
	case e.queue <- sentence:
	default: // the synthesizer is behind: the end will catch up
		e.broken = true
	}
}

func (e *earlySpeech) run() {
	defer close(e.done)
	for s := range e.queue {
		e.mu.Lock()
		broken := e.broken
		e.mu.Unlock()
		if broken {
			continue
		}
		res, err := e.b.speakable(s)
		if err != nil || len(res.Kinds) > 0 || res.Text == "" {
			e.mu.Lock()
			e.broken = true
			e.mu.Unlock()
			continue
		}
		s = res.Text
		wav, err := e.b.d.Synthesizer.Synthesize(e.ctx, s)
		var clip speech.Clip
		if err == nil {
			clip, err = speech.DecodeWAV(wav, 5*time.Minute)
		}
		e.mu.Lock()
		if err != nil {
			e.broken = true
		} else {
			e.texts = append(e.texts, s)
			e.samples = append(e.samples, clip.Samples...)
		}
		e.mu.Unlock()
	}
}

// finish stops taking sentences and returns what was spoken early, if usable.
func (e *earlySpeech) finish() (string, []float32) {
	e.once.Do(func() {
		e.mu.Lock()
		e.closed = true
		close(e.queue)
		e.mu.Unlock()
	})
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken || len(e.texts) == 0 {
		return "", nil
	}
	return strings.Join(e.texts, " "), e.samples
}

// speakWithEarly synthesizes reply, reusing audio made early when it matches its beginning.
func (b *Broker) speakWithEarly(ctx context.Context, t *turn, reply string) ([]byte, error) {
	if t.early != nil {
		prefix, samples := t.early.finish()
		if prefix != "" && strings.HasPrefix(reply, prefix) {
			rest := strings.TrimSpace(strings.TrimPrefix(reply, prefix))
			if rest != "" {
				wav, err := b.d.Synthesizer.Synthesize(ctx, rest)
				if err != nil {
					return nil, err
				}
				clip, err := speech.DecodeWAV(wav, 5*time.Minute)
				if err != nil {
					return nil, err
				}
				samples = append(samples, clip.Samples...)
			}
			t.stages["early_sentences"] = int64(strings.Count(prefix, ". ") + 1)
			return speech.EncodeWAV(samples, speech.SampleRate)
		}
	}
	return b.d.Synthesizer.Synthesize(ctx, reply)
}
