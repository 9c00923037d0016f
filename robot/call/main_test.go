package call_test

import (
	"os"
	"testing"

	"github.com/reachy-broker/reachy-broker/robot/call"
	"github.com/reachy-broker/reachy-broker/robot/call/media"
)

// TestMain: started by a Manager under test (it names this binary as its media program), the
// test binary is a call's media process, as reachy-call would be.
func TestMain(m *testing.M) {
	if os.Getenv(call.MediaProcessEnv) != "" {
		os.Exit(media.Main())
	}
	os.Exit(m.Run())
}
