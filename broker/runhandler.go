package broker

// Running an intent's handler, the pipeline's stage between routing and the reply: whether
// this broker has a handler of a type at all (hasHandler), the handler's own check of its
// arguments before anything is audited or done (checkArgs), and the call itself under a
// deadline taken from what is left of the turn, cut off if the handler ignores it
// (runHandler, awaitHandler).

import (
	"context"
	"errors"
	"fmt"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/store"
	"github.com/reachy-broker/reachy-broker/intents"
)

// hasHandler reports whether this broker has a handler of that type: the intents bound to one
// it lacks (a calendar, an agent, a house not connected) answer "I can't do that yet".
func (b *Broker) hasHandler(handlerType string) bool {
	_, ok := b.d.Handlers[handlerType]
	return ok
}

// checkArgs lets a handler whose arguments depend on one another refuse or complete them
// before anything is audited or done (intents.ArgChecker). Its errors name declared
// arguments only.
func (b *Broker) checkArgs(in *intents.Intent, args map[string]string) (map[string]string, error) {
	ck, ok := b.d.Handlers[in.Handler.Type].(intents.ArgChecker)
	if !ok {
		return args, nil
	}
	out, err := ck.CheckArgs(in, args)
	if err != nil {
		var ae *intents.ArgError
		if errors.As(err, &ae) {
			return nil, ae
		}
		return nil, errors.New("invalid arguments")
	}
	return out, nil
}

// runHandler calls the intent's handler under a deadline taken from what is left of the turn.
func (b *Broker) runHandler(ctx context.Context, t *turn, table *intents.Table, in *intents.Intent, args map[string]string) (intents.Answer, string) {
	h, ok := b.d.Handlers[in.Handler.Type]
	if !ok {
		t.code = "not_built"
		return intents.Answer{Reply: replyNotYet, Expression: intents.ExpressionSorry}, store.OutcomeFailed
	}
	args, err := b.checkArgs(in, args)
	if err != nil {
		t.code = api.CodeInvalidArgs
		return intents.Answer{Reply: replyInvalid, Expression: intents.ExpressionConfused}, store.OutcomeInvalid
	}
	t.resp.Args = store.AllowlistArgs(args)
	hctx, cancel := context.WithDeadline(ctx, t.workDeadline())
	defer cancel()
	done := make(chan handlerResult, 1)
	call := intents.Call{Intent: in, Args: args, Device: t.c.Name, Room: t.c.room, Scopes: t.c.Scopes, Table: table,
		Available: b.hasHandler, Callable: b.callable(table), MaxReply: b.d.Config.Redact.MaxChars}
	if in.Kind == intents.KindAsk && t.audio && b.d.Synthesizer != nil {
		t.early = b.newEarlySpeech(ctx, t)
		call.Partial = t.early.add
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- handlerResult{err: fmt.Errorf("handler panic: %v", p)}
			}
		}()
		a, err := h.Handle(hctx, call)
		done <- handlerResult{a, err}
	}()
	ans, outcome := b.awaitHandler(hctx, t, in, done)
	b.noteHandler(in, outcome, t.code)
	return ans, outcome
}

// handlerResult is what a handler's goroutine hands back.
type handlerResult struct {
	a   intents.Answer
	err error
}

// awaitHandler waits for the handler's result or its deadline.
func (b *Broker) awaitHandler(hctx context.Context, t *turn, in *intents.Intent, done <-chan handlerResult) (intents.Answer, string) {
	select {
	case res := <-done:
		switch {
		case res.err == nil:
			switch res.a.Outcome {
			case intents.OutcomeFailed, intents.OutcomePartial, intents.OutcomeUnknown:
				t.code = in.Handler.Type + "_" + res.a.Outcome
				if res.a.Code == intents.CodeNotConfigured {
					t.code = res.a.Code
				}
				return res.a, res.a.Outcome
			}
			return res.a, store.OutcomeOK
		case errors.Is(res.err, context.DeadlineExceeded):
			t.code = api.CodeTimeout
			return intents.Answer{Reply: replyTimeout, Expression: intents.ExpressionSorry}, store.OutcomeTimeout
		default:
			b.log.Warn("handler failed", "intent", in.Name, "err", res.err)
			t.code = api.CodeInternal
			return intents.Answer{Reply: replyError, Expression: intents.ExpressionSorry}, store.OutcomeFailed
		}
	case <-hctx.Done():
		// A handler that ignores its deadline is cut off here; the turn still answers.
		t.code = api.CodeTimeout
		b.log.Warn("handler cut at its deadline", "intent", in.Name)
		return intents.Answer{Reply: replyTimeout, Expression: intents.ExpressionSorry}, store.OutcomeTimeout
	}
}
