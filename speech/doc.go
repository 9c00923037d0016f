// Package speech owns audio in and out of the broker and the hub: WAV decoding and
// validation, resampling to 16 kHz, WAV encoding of replies, removal of a microphone's DC
// offset, energy-based voice activity detection, and the speech-synthesis engines
// (espeak-ng and OpenAI-compatible servers).
// Speech-to-text with whisper.cpp lives in the sub-package speech/whisper so that the
// hub can use this package without linking whisper.cpp.
//
// It must never import another package of this project, never write audio to disk on its
// own account, and never panic or allocate without bound on malformed input: every
// decoding error is an *AudioError carrying one of the closed codes.
package speech
