// Command reachy-wake is the hub's wake-phrase spotter when it runs an engine that loads ONNX
// Runtime (wake_spotter: neural, fused, either, both): a process of its own that reachy-hub
// starts when it starts and that dies with it (robot/wake process.go, serve.go), so the hub
// stays within its memory budget. It reads utterances on stdin and answers on stdout; it never
// writes audio anywhere and never talks to the network. It is not run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/robot/wake"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println(buildinfo.String(wake.Program))
		return
	}
	if len(os.Args) > 1 {
		fmt.Fprintf(os.Stderr, "%s is started by reachy-hub (wake_spotter: neural, fused, either or both); it takes no arguments but --version\n", wake.Program)
		os.Exit(2)
	}
	os.Exit(wake.ServeMain())
}
