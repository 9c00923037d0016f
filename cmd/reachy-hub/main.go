// Command reachy-hub runs on the Reachy Mini: it listens, sends utterances to the broker with
// its one token, and speaks and moves with the reply. The hub loop comes with the robot
// issue; this build only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "reachy-hub: not built yet (see the robot issue); nothing to run")
	os.Exit(2)
}
