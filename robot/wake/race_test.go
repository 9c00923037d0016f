//go:build race

package wake

const raceEnabled = true
