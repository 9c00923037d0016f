package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
	"github.com/reachy-broker/reachy-broker/speech"
	"github.com/reachy-broker/reachy-broker/speech/whisper"
)

func runTranscribe(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("transcribe", stderr)
	model := fs.String("model", "", "path to a ggml whisper model (make model downloads one)")
	asJSON := fs.Bool("json", false, "print JSON")
	threads := fs.Int("threads", 2, "whisper threads")
	maxTokens := fs.Int("max-tokens", 64, "stop after this many tokens (0: no limit)")
	timeout := fs.Duration("timeout", 60*time.Second, "give up after this long")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *model == "" || len(pos) != 1 {
		return usagef("need --model PATH and one WAV file")
	}
	body, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	clip, err := speech.DecodeWAV(body, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	eng, err := whisper.Load(whisper.Config{ModelPath: *model, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return err
	}
	defer eng.Close()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	res, err := eng.Transcribe(ctx, clip.Samples, whisper.Options{Threads: *threads, MaxTokens: *maxTokens})
	if err != nil {
		return err
	}
	if !*asJSON {
		fmt.Fprintln(stdout, res.Text)
		return nil
	}
	type seg struct {
		Text         string  `json:"text"`
		StartMS      int64   `json:"start_ms"`
		EndMS        int64   `json:"end_ms"`
		NoSpeechProb float32 `json:"no_speech_prob"`
	}
	out := struct {
		Text      string `json:"text"`
		Segments  []seg  `json:"segments"`
		Dropped   int    `json:"dropped_segments"`
		AudioCtx  int    `json:"audio_ctx"`
		TestModel bool   `json:"test_model"`
	}{Text: res.Text, Dropped: res.Dropped, AudioCtx: res.AudioCtx, TestModel: eng.IsTestModel(), Segments: []seg{}}
	for _, s := range res.Segments {
		out.Segments = append(out.Segments, seg{s.Text, s.Start.Milliseconds(), s.End.Milliseconds(), s.NoSpeechProb})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func runSpeak(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("speak", stderr)
	out := fs.String("o", "", "write the WAV here")
	voice := fs.String("voice", "en-us", "espeak-ng voice")
	rate := fs.Int("rate", 165, "words per minute")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	text := joinWords(pos)
	if text == "" || *out == "" {
		return usagef(`need text and -o out.wav`)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wav, err := speech.Espeak{Voice: *voice, Rate: *rate}.Synthesize(ctx, text)
	if err != nil {
		return err
	}
	// The clip carries its words (a LIST/INFO chunk): a dev broker without a speech model
	// takes them as what the room said, so the family's side can be tried on a fresh clone.
	if wav, err = speech.WithSpokenText(wav, text); err != nil {
		return err
	}
	if err := os.WriteFile(*out, wav, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", *out)
	return nil
}

func runGenTestModel(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("gen-test-model", stderr)
	shape := fs.String("shape", "tiny", "tiny (small and fast) or tiny.en (real tiny.en dimensions)")
	out := fs.String("out", "", "where to write the model")
	seed := fs.Uint64("seed", 1, "random seed for the weights")
	if _, err := cliflags.ParseInterspersed(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("need --out PATH")
	}
	s, err := whisper.TestShape(*shape)
	if err != nil {
		return usagef("%v", err)
	}
	if err := whisper.WriteTestModel(*out, s, *seed); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s (%s shape, random weights: its transcripts are meaningless)\n", *out, *shape)
	return nil
}
