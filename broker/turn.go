package broker

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/play"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/redact"
	"github.com/reachy-broker/reachy-broker/speech"
)

// Spoken answers the broker itself gives.
const (
	replyNotYet   = "Sorry, I can't do that yet."
	replyDenied   = "Sorry, I'm not allowed to do that from here."
	replyTimeout  = "Sorry, that took too long. Please try again."
	replyError    = "Sorry, something went wrong. Please try again."
	replyOneThing = "Please ask me for one thing at a time."
	replyInvalid  = "Sorry, I can't do that as asked."
)

// synthesisReserve is kept back from a turn's budget for speaking the answer: 1.5 s, or a
// quarter of a short budget.
const synthesisReserve = 1500 * time.Millisecond

func (t *turn) workDeadline() time.Time {
	return t.deadline.Add(-min(synthesisReserve, t.deadline.Sub(t.start)/4))
}

// turn carries one request through the pipeline.
type turn struct {
	id       string
	start    time.Time
	deadline time.Time
	route    string
	c        caller
	stages   map[string]int64
	resp     api.TurnResponse
	redacted []string
	audio    bool
	code     string
	early    *earlySpeech

	key     string     // the Idempotency-Key, if any
	path    string     // the request's path, bound to the key
	hash    []byte     // of route, query and body, bound to the key
	acted   bool       // the audit intent of an actuation was committed
	pending *store.Key // the key record written before the handler ran
	// storeDown: the key's record could not be looked up (the store did not answer), so this
	// turn may read but never act, and stores nothing under the key.
	storeDown bool
	replayOf  string // the turn a replay answers for
	// clipText: a dev broker without a model took the clip's own words as its transcript
	// (Deps.DevClipText); the audit record's code says so.
	clipText bool
	noModel  bool // refused: no speech-to-text model
}

// turnRoutes are the turn routes by path (the typed-call route is /v1/intents/{name}).
var turnRoutes = map[string]string{"/v1/turns": "turn", "/v1/utterances": "utterance"}

// CodeDevClipText labels, in the audit record's code, a turn whose transcript was the words
// its clip carried (a dev broker without a model), not speech-to-text.
const CodeDevClipText = "dev_clip_text"

// newTurn starts a turn whose budget began when the request arrived (before the token check).
func (b *Broker) newTurn(r *http.Request, route string) *turn {
	return b.newTurnFor(r.Context(), callerOf(r), route)
}

// newTurnFor starts a turn whose budget began when the request arrived (before the token
// check), as recorded in ctx by arrived.
func (b *Broker) newTurnFor(ctx context.Context, c caller, route string) *turn {
	start, ok := ctx.Value(arrivalKey).(time.Time)
	if !ok {
		start = time.Now()
	}
	return &turn{id: newTurnID(), start: start, deadline: start.Add(b.d.Config.Turn.Budget), route: route,
		c: c, stages: map[string]int64{}}
}

func (t *turn) mark(stage string, since time.Time) time.Time {
	now := time.Now()
	t.stages[stage] = now.Sub(since).Milliseconds()
	return now
}

func (b *Broker) respond(w http.ResponseWriter, status int, v any) {
	if e, ok := v.(*apiError); ok {
		writeError(w, e)
		return
	}
	writeJSON(w, status, v)
}

// refuse answers an error found before the idempotency check (the request is not bound to
// its key yet), auditing it like any other.
func (b *Broker) refuse(w http.ResponseWriter, t *turn, e *apiError) {
	status, v := b.errorResult(t, e)
	b.respond(w, status, v)
}

func (b *Broker) fail(w http.ResponseWriter, e *apiError) {
	b.m.countError(e.Code)
	writeError(w, e)
}

// errorResult turns an apiError into what withIdempotency stores.
func (b *Broker) errorResult(t *turn, e *apiError) (int, any) {
	b.m.countError(e.Code)
	outcome := store.OutcomeInvalid
	switch {
	case isRefusal(e.Code):
		outcome = store.OutcomeDenied
	case e.Code == api.CodeTimeout:
		outcome = store.OutcomeTimeout
	case e.Code == api.CodeBusy || e.Code == api.CodeInternal || e.Code == api.CodeUnavailable:
		outcome = store.OutcomeFailed
	}
	if e.Code != api.CodeBusy && e.Code != api.CodeRateLimited {
		t.resp.Outcome, t.code = outcome, e.Code
		b.audit(t)
	} else {
		// Not audited (a flood of them would be a flood of records), but the operator sees
		// the robot's last turn and the count of refusals.
		b.ops.noteTurn(t.c.Name, LastTurn{At: t.start.UTC().Round(0), Route: t.route, Intent: t.resp.Intent, Outcome: outcome,
			Code: e.Code, Refused: refusalReason(e.Code, t.noModel)})
	}
	status := codeStatus[e.Code]
	return status, e
}

// handleTurn: audio in, spoken answer out.
func (b *Broker) handleTurn(w http.ResponseWriter, r *http.Request) {
	t := b.newTurn(r, "turn")
	t.audio = r.URL.Query().Get("audio") != "none"
	switch mediaType(r) {
	case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave":
	default:
		b.refuse(w, t, errf(api.CodeUnsupportedMediaType, "send audio/wav (PCM)"))
		return
	}
	// Admitted before the body is read: only a bounded number of turns hold audio at once.
	admitted, ok := b.decodes.admit(r.Context())
	if !ok {
		b.refuse(w, t, &apiError{Code: api.CodeBusy, Message: "too many turns are being decoded; try again", RetryAfter: 1})
		return
	}
	release := sync.OnceFunc(admitted)
	defer release() // also when the key replays or conflicts and fn never runs
	// The body is read before the key is looked at: the key is bound to its hash.
	body, e := readBody(r, w, b.d.Config.Limits.AudioBytes)
	if e != nil {
		b.refuse(w, t, e)
		return
	}
	b.withIdempotency(w, r, t, body, func() (int, any) {
		clip, e := b.decodeAudio(body, t)
		if e != nil {
			release()
			return b.errorResult(t, e)
		}
		since := time.Now()
		speaks := len(speech.DetectSpeech(clip.Samples, speech.DefaultVAD())) > 0
		release()
		since = t.mark("vad", since)
		if !speaks {
			return b.ignored(t, "no speech in the audio")
		}
		if b.d.Transcriber == nil {
			if text, ok := b.clipText(t, body); ok {
				return b.tail(r.Context(), t, text, *b.d.Config.Turn.RequireWake, since)
			}
			// No Retry-After: asking again cannot help until a model is configured.
			t.noModel = true
			return b.errorResult(t, &apiError{Code: api.CodeBusy, Message: "speech-to-text is not available: this broker has no whisper model (text turns still work)"})
		}
		sctx, cancel := context.WithDeadline(r.Context(), t.workDeadline())
		text, err := b.d.Transcriber.Transcribe(sctx, clip.Samples)
		cancel()
		b.m.stage.WithLabelValues("stt").Observe(time.Since(since).Seconds())
		since = t.mark("stt", since)
		switch {
		case errors.Is(err, ErrBusy):
			return b.errorResult(t, &apiError{Code: api.CodeBusy, Message: "speech-to-text is busy; try again", RetryAfter: 1})
		case errors.Is(err, context.DeadlineExceeded):
			return b.errorResult(t, errf(api.CodeTimeout, "speech-to-text did not finish in time"))
		case err != nil:
			b.log.Error("speech-to-text", "err", err)
			return b.errorResult(t, errf(api.CodeInternal, "speech-to-text failed"))
		}
		return b.tail(r.Context(), t, text, *b.d.Config.Turn.RequireWake, since)
	})
}

// clipText is a dev broker's stand-in for speech-to-text when it has no model: the words the
// clip carries (speech.SpokenText), logged as such. Outside dev mode it never answers.
func (b *Broker) clipText(t *turn, wav []byte) (string, bool) {
	if !b.d.DevClipText {
		return "", false
	}
	text, ok := speech.SpokenText(wav)
	if !ok {
		return "", false
	}
	t.clipText = true
	b.log.Info("dev mode, no speech model: the clip's own words (reachyctl speak) taken as its transcript", "device", t.c.Name,
		"turn_id", t.id, "label", CodeDevClipText)
	return text, true
}

// handleUtterance: operator text routed exactly like a transcript (no wake phrase needed).
func (b *Broker) handleUtterance(w http.ResponseWriter, r *http.Request) {
	t := b.newTurn(r, "utterance")
	body, e := b.readJSONBody(r, w)
	if e != nil {
		b.refuse(w, t, e)
		return
	}
	var req struct {
		Text  string `json:"text"`
		Audio bool   `json:"audio"`
	}
	if e := decodeJSON(body, &req); e != nil {
		b.refuse(w, t, e)
		return
	}
	t.audio = req.Audio
	b.withIdempotency(w, r, t, body, func() (int, any) {
		if strings.TrimSpace(req.Text) == "" || len(req.Text) > 2000 {
			return b.errorResult(t, errf(api.CodeInvalidArgs, `"text" must be 1 to 2000 bytes`))
		}
		return b.tail(r.Context(), t, req.Text, false, time.Now())
	})
}

// tail is the part shared by turns and utterances: wake, clarification, route, scope,
// handler, redaction, synthesis, audit.
func (b *Broker) tail(ctx context.Context, t *turn, text string, requireWake bool, since time.Time) (int, any) {
	table := b.d.Table()
	rctx := intents.Context{DeviceRoom: t.c.room}
	st := b.deviceState(t.c.Name)
	now := b.d.Now()

	var d intents.Decision
	completed := false
	b.devMu.Lock()
	pending, followOpen := st.pending, now.Before(st.followUntil)
	if pending != nil && now.After(st.pendingExpires) {
		pending = nil
	}
	st.pending = nil
	b.devMu.Unlock()
	if pending != nil {
		d, completed = table.Complete(*pending, text, rctx)
	}
	if !completed {
		d = table.Route(text, rctx)
		if len(d.Doctrine) > 0 && d.Doctrine[0] == intents.RouterFault {
			b.log.Error("router fault: the sentence is answered as unclear", "turn_id", t.id, "device", t.c.Name, "doctrine", d.Doctrine)
		}
	}
	// A game in play takes its own answers and "stop the game" first; "stop" and anything
	// else keep their route. A game's answer needs no wake phrase while the game lasts.
	var claim play.Claim
	claimed := false
	if !completed {
		d, claim, claimed = b.claimForGame(t.c.Name, d)
	}
	since = t.mark("route", since)
	if requireWake && !d.Normalized.Wake && !followOpen && !completed && !claimed {
		return b.ignored(t, "no wake phrase")
	}
	if d.Intent == intents.IntentNone {
		return b.ignored(t, "nothing was said")
	}
	t.resp.Intent, t.resp.Kind, t.resp.Args = d.Intent, string(d.Kind), store.AllowlistArgs(d.Args)

	var ans intents.Answer
	outcome := store.OutcomeOK
	// A clarification names the home's rooms or people: ask it only of a caller who may
	// call the intent it would complete, so the vocabulary does not leak across scopes.
	scope := d.Scope
	if d.Intent == intents.IntentClarify && d.Pending != nil {
		if pin, ok := table.Lookup(d.Pending.Intent); ok && !t.c.Has(pin.Scope) {
			scope = pin.Scope
			t.resp.Intent, t.resp.Kind, t.resp.Args = pin.Name, string(pin.Kind), map[string]string{}
		}
	}
	switch {
	case !t.c.Has(scope):
		outcome, t.code = store.OutcomeDenied, api.CodeIntentDenied
		b.m.countError(api.CodeIntentDenied)
		ans = intents.Answer{Reply: replyDenied, Expression: intents.ExpressionSorry}
	case roomVoiceOnly(table, d.Intent) && !b.roomVoice(t):
		// Typed text, an operator's utterance or a token that is not a robot never switches
		// what only the room's voice may (privacy mode).
		outcome, t.code = store.OutcomeDenied, api.CodeIntentDenied
		b.m.countError(api.CodeIntentDenied)
		ans = intents.Answer{Reply: replyRoomVoiceOnly, Expression: intents.ExpressionSorry}
	case claimed:
		ans = b.d.Games.Answer(ctx, t.c.Name, t.key, claim)
	case d.Intent == intents.IntentClarify:
		ans = intents.Answer{Reply: d.Prompt, Expression: intents.ExpressionCurious, FollowUp: true}
		if ans.Reply == "" {
			ans.Reply = replyOneThing
		}
		if d.Pending != nil {
			b.devMu.Lock()
			st.pending, st.pendingExpires = d.Pending, now.Add(b.d.Config.Turn.ClarifyTTL)
			b.devMu.Unlock()
		}
	default:
		in, _ := table.Lookup(d.Intent)
		if !in.Acts() {
			ans, outcome = b.runHandler(ctx, t, table, in, d.Args)
			break
		}
		var e *apiError
		if ans, outcome, e = b.actuate(ctx, t, table, in, d.Args); e != nil {
			return b.errorResult(t, e)
		}
	}
	since = t.mark("handler", since)
	return b.finish(ctx, t, ans, outcome, since)
}

// finish redacts, speaks, audits and answers.
func (b *Broker) finish(ctx context.Context, t *turn, ans intents.Answer, outcome string, since time.Time) (int, any) {
	if ans.Calendar != nil {
		ans.Reply = b.sayCalendar(*ans.Calendar)
	}
	res, err := b.speakable(ans.Reply)
	if err != nil {
		b.log.Error("redactor failed: saying the fixed apology", "err", err)
		res = redact.Result{Text: redact.Apology, Kinds: []string{"redactor_failed"}}
	}
	for _, k := range res.Kinds {
		b.m.redactions.WithLabelValues(k).Inc()
	}
	t.redacted = res.Kinds
	since = t.mark("redact", since)
	t.resp.Reply, t.resp.Outcome = res.Text, outcome
	t.resp.Expression, t.resp.FollowUp = ans.Expression, ans.FollowUp
	if t.resp.Expression == "" {
		t.resp.Expression = intents.ExpressionNeutral
	}
	if t.audio && res.Text != "" && b.d.Synthesizer != nil {
		sctx, cancel := context.WithDeadline(ctx, t.deadline)
		wav, err := b.speakWithEarly(sctx, t, res.Text)
		cancel()
		if err != nil {
			b.log.Warn("speech synthesis failed; answering with text only", "err", err)
		} else {
			t.resp.Audio = base64.StdEncoding.EncodeToString(wav)
		}
		since = t.mark("synthesis", since)
	}
	if t.early != nil {
		t.early.finish() // no-op when the reply used it; stops its goroutine otherwise
	}
	if t.resp.FollowUp {
		st := b.deviceState(t.c.Name)
		b.devMu.Lock()
		st.followUntil = b.d.Now().Add(b.d.Config.Turn.FollowUpWindow)
		b.devMu.Unlock()
	}
	if t.acted {
		rec := b.auditRecord(t)
		b.countTurn(t, rec)
		b.settle(b.stateCtx(ctx, t), t, rec)
	} else {
		b.audit(t)
	}
	return http.StatusOK, &t.resp
}

// ignored answers a turn that is not for the robot: nothing is done, only the fact is audited.
func (b *Broker) ignored(t *turn, why string) (int, any) {
	t.resp.Intent, t.resp.Kind, t.resp.Outcome = intents.IntentNone, string(intents.KindMeta), store.OutcomeIgnored
	t.resp.Args = map[string]string{}
	t.resp.Expression = intents.ExpressionNeutral
	t.code = strings.ReplaceAll(why, " ", "_")
	b.audit(t)
	return http.StatusOK, &t.resp
}

func (b *Broker) deviceState(name string) *deviceState {
	b.devMu.Lock()
	defer b.devMu.Unlock()
	st, ok := b.devices[name]
	if !ok {
		st = &deviceState{}
		b.devices[name] = st
	}
	return st
}

// sayCalendar renders a coarse calendar status in the home's time zone.
func (b *Broker) sayCalendar(s redact.CalendarStatus) string {
	return redact.SayCalendar(s, b.d.Table().Location(), b.d.Now(), b.d.Config.Whereabouts())
}
