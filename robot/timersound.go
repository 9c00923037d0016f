package robot

// What a timer's ring plays on the robot: the broker's ring (playRing: the chime, staged
// when the speaker can, then the broker's sentence) and a local ring's sound (localSound:
// the chime and, when Say can make it, the sentence localSentence words — "went off 3
// minutes ago" for a late one, via sayAgo). Who rings a timer, and when, is decided in
// timers.go.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/speech"
)

// playRing plays a broker's ring: the chime, then the sentence. starting is called just
// before the chime starts (after its upload, when the speaker can stage it).
func (l *LocalTimers) playRing(ctx context.Context, r api.LinkRingAction, starting func()) error {
	sound := l.Chime
	if sound == nil {
		sound = attentionChime()
	}
	play := func(ctx context.Context) error { return l.Speaker.Play(ctx, "timer-chime.wav", sound) }
	if st, ok := l.Speaker.(stager); ok {
		p, err := st.Stage(ctx, "timer-chime.wav", sound)
		if err != nil {
			return fmt.Errorf("timer chime: %w", err)
		}
		play = p
	}
	starting()
	if err := play(ctx); err != nil {
		return fmt.Errorf("timer chime: %w", err)
	}
	if len(r.WAV) > 0 {
		if err := l.Speaker.Play(ctx, "timer-"+r.TimerID+".wav", r.WAV); err != nil {
			return fmt.Errorf("timer announcement: %w", err)
		}
	}
	return nil
}

// localSound is what a local ring plays: the chime, then the sentence when Say can make it
// ("Your pasta timer is done.", or when it is late "Your pasta timer went off 3 minutes ago.").
func (l *LocalTimers) localSound(ctx context.Context, label string, late time.Duration) []byte {
	if l.Sound != nil {
		return l.Sound
	}
	if l.Say != nil {
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		wav, err := l.Say(sctx, l.localSentence(label, late))
		cancel()
		if err == nil {
			if clip, err := speech.DecodeWAV(wav, time.Minute); err == nil {
				if out, err := speech.EncodeWAV(append(chime(), clip.Samples...), speech.SampleRate); err == nil {
					return out
				}
			}
		}
		l.log().Warn("local timer sentence not synthesized; ringing with the chime", "err", err)
	}
	return attentionChime()
}

// localSentence is a local ring's sentence. Numbers are digits: the robot's synthesizer says them.
func (l *LocalTimers) localSentence(label string, late time.Duration) string {
	name := "timer"
	if label != "" {
		name = label + " timer"
	}
	lateAfter := l.LateAfter
	if lateAfter <= 0 {
		lateAfter = 10 * time.Second
	}
	if late <= lateAfter {
		return "Your " + name + " is done."
	}
	return "Your " + name + " went off " + sayAgo(late) + "."
}

// sayAgo says how long ago: "40 seconds ago", "3 minutes ago", "2 hours and 5 minutes ago".
func sayAgo(d time.Duration) string {
	count := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	switch {
	case d < time.Minute:
		return count(int(d.Round(time.Second)/time.Second), "second") + " ago"
	case d < time.Hour:
		return count(int(d.Round(time.Minute)/time.Minute), "minute") + " ago"
	}
	m := int(d.Round(time.Minute) / time.Minute)
	if m%60 == 0 {
		return count(m/60, "hour") + " ago"
	}
	return count(m/60, "hour") + " and " + count(m%60, "minute") + " ago"
}

// attentionChime is the rising two-tone chime the hub plays before the broker speaks first.
func attentionChime() []byte {
	b, _ := speech.EncodeWAV(chime(), speech.SampleRate)
	return b
}
