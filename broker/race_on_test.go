//go:build race

package broker

// raceDetector is true in a -race build, whose memory and speed say nothing about production.
const raceDetector = true
