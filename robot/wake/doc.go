// Package wake owns the hub's wake-phrase spotter: it decides, on the robot, whether a stretch
// of speech the VAD heard addresses the robot ("hey reachy, ..."), so that nothing else ever
// leaves the robot. Spotter is the engine interface: PocketSphinx keyphrase search through
// cgo (the default, with a second listen to a denoised copy when a steady noise sits close
// under the voice), the neural engine (openWakeWord's feature models through ONNX Runtime and
// the project's head), and the fused engine (both, one logistic decision over their
// evidence). Engines that load ONNX Runtime run in the wake process (process.go, serve.go:
// cmd/reachy-wake), which the hub starts and which dies with it, so the hub keeps its memory
// budget. Guard runs an engine with a deadline, one call at a time, so a crashing or stalled
// engine degrades to "not addressed" instead of wedging the hub; the training and evaluation
// sets and their scoring (recall per SNR, false accepts per hour) live here too.
//
// It must never write captured audio anywhere (the evaluation set is synthetic speech the
// tests generate; the wake process gets utterances on a pipe and keeps none), never talk to
// the network, and never answer "addressed" when the engine failed: a fault is a quiet robot,
// not an open microphone.
package wake
