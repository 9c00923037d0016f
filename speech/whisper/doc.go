// Package whisper owns local speech-to-text: it loads a whisper.cpp ggml model once, keeps a
// pool of inference states (one per worker, because a whisper state is not safe for
// concurrent use) behind a bounded queue, and turns 16 kHz mono samples into text.
// It also writes the random-weight test models the project's tests and benchmarks use.
//
// It talks to whisper.cpp 1.9.1 through cgo against the static libraries the setup step
// builds (see deploy/scripts/whisper-build.sh). It must never hand whisper.cpp input it has
// not validated (a C++ exception ends the whole process), never keep a caller waiting past
// its context's deadline, and never import another package of this project.
package whisper
