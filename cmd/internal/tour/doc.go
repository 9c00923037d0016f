// Package tour holds the end-to-end test of the documented tours: it builds reachy-broker,
// reachy-hub and reachyctl and runs the README's five-minute tour, its sim-mode section and
// its kitchen-timer section line by line in a shell, as written (on ports and in a
// directory the test owns), checking what each line prints and the files it should leave —
// the simulator's --out files included. It has no code of its own outside the test.
package tour
