// Command reachy-call is a live call's media: the WebRTC peer and the GStreamer pipelines
// of one call, in a process of its own that reachy-hub starts for the length of the call
// and that dies with it (robot/call/media). It keeps pion out of the hub, which listens all
// day. It is not run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/reachy-broker/reachy-broker/cmd/internal/buildinfo"
	"github.com/reachy-broker/reachy-broker/robot/call/media"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println(buildinfo.String("reachy-call"))
		return
	}
	os.Exit(media.Main())
}
