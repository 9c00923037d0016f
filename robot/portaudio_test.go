package robot

import (
	"errors"
	"testing"
)

// TestPortAudioEnumeration runs the real PortAudio library. This machine has no sound card,
// so only enumeration and device lookup are checked; opening a stream needs a device.
func TestPortAudioEnumeration(t *testing.T) {
	done, err := OpenAudio()
	if err != nil {
		t.Fatalf("PortAudio must initialize even without a sound card: %v", err)
	}
	defer done()
	devs, err := ListDevices()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d audio devices", len(devs))
	if _, err := OpenCapture("reachymini_audio_src-that-does-not-exist", 2); !errors.Is(err, ErrNoDevice) {
		t.Fatalf("opening a missing device: %v", err)
	}
	if len(devs) == 0 {
		t.Log("no audio device on this machine: opening a stream is exercised on the robot only")
	}
}
