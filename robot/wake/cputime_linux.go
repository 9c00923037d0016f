package wake

import "syscall"

// threadCPU is the CPU time the calling OS thread has used, in seconds (RUSAGE_THREAD): what
// a measurement of one core's work should count on a machine others share.
func threadCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
