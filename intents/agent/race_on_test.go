//go:build race

package agent

// raceEnabled: the race detector instruments allocations, so allocation budgets in tests are
// read with its overhead (about 1.6× here).
const raceEnabled = true
