// Package intents owns the closed allowlist: the intent table (built-in and from the home's
// config), the home's closed vocabularies (rooms, devices, people, expressions, timer
// labels), the router's lexicons (lexicon.yaml, extended by a home's words), the transcript
// normalizer and the wake-phrase check, the readings of a sentence that reached nobody as
// said (a small child's sounds against the table's own words, soundalike.go; another
// language word by word, foreign.yaml: Spanish, Hindi, Tagalog, Polish, French, Portuguese,
// German, Arabic), the deterministic router — whole-sentence patterns
// for the home's own intents and the built-ins, frames (mentions + sentence form) for every
// built-in intent, the family frames over the lexicons, the speech-act rules (a
// self-correction takes the corrected value; a quoted, relayed or conditional command is
// offered, never done; a part to play, rules dropped or a song never act), the command rule
// (only a sentence that is positively a request to act now may act; a discomfort said alone is
// offered its remedy, remedy.go, never done; a reason stated beside a request is its reason,
// reasons_stated.go; a request put off to another time waits) — with its doctrine,
// clarification, the spoken duration parser, and the spoken command guide generated from the
// table's own examples.
//
// It is pure: it must never do network or file I/O beyond reading the config it is handed,
// never act on a sentence that is not a request, never call a model, never let free text reach any intent but general.ask, never let a
// sentence about this home reach general.ask, and never repeat an unrecognised word in a
// question back. Handlers live in sub-packages and get their clients injected by the broker.
package intents
