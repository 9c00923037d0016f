//go:build !linux

package wake

// threadCPU is not measured off Linux: evaluations there report wall time.
func threadCPU() float64 { return 0 }
