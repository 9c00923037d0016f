//go:build !race

package agent

// raceEnabled: see race_on_test.go.
const raceEnabled = false
