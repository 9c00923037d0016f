package media

import (
	"testing"

	"github.com/pion/rtp"
)

// h264 payloads: an SPS, an IDR's first and later fragments (FU-A), a P slice, an SPS+PPS
// aggregation (STAP-A).
var (
	spsNAL   = []byte{0x67, 0x42, 0xc0, 0x1f}
	idrStart = []byte{0x7c, 0x85, 1, 2, 3}
	idrMore  = []byte{0x7c, 0x05, 4, 5, 6}
	pSlice   = []byte{0x41, 0x9a, 7}
	stapSPS  = []byte{0x18, 0x00, 0x04, 0x67, 0x42, 0xc0, 0x1f, 0x00, 0x02, 0x68, 0xce}
)

func pkt(seq uint16, ts uint32, payload []byte) *rtp.Packet {
	return &rtp.Packet{Header: rtp.Header{SequenceNumber: seq, Timestamp: ts}, Payload: payload}
}

// TestHeldVideoStartsAtTheLastKeyframe: frames before any keyframe are not held; a keyframe
// (its SPS and its slices share a timestamp) starts the held group over; a group past the
// bounds is dropped rather than grown.
func TestHeldVideoStartsAtTheLastKeyframe(t *testing.T) {
	var g gop
	g.keep(pkt(1, 100, pSlice)) // before any keyframe
	g.keep(pkt(2, 200, stapSPS))
	g.keep(pkt(3, 200, idrStart)) // same picture as the SPS: kept in the group
	g.keep(pkt(4, 200, idrMore))
	g.keep(pkt(5, 300, pSlice))
	g.keep(pkt(6, 400, spsNAL)) // the next keyframe
	g.keep(pkt(7, 400, idrStart))
	g.keep(pkt(8, 500, pSlice))
	var seqs []uint16
	for _, p := range g.take() {
		seqs = append(seqs, p.SequenceNumber)
	}
	if len(seqs) != 3 || seqs[0] != 6 || seqs[2] != 8 {
		t.Fatalf("held %v, want 6 7 8 (from the last keyframe on)", seqs)
	}
	if len(g.take()) != 0 {
		t.Fatal("take did not empty the cache")
	}

	g.keep(pkt(9, 600, idrStart))
	for i := range maxGOPPackets + 1 {
		g.keep(pkt(uint16(10+i), 700, pSlice))
	}
	if n := len(g.take()); n != 0 {
		t.Fatalf("a group past %d packets was held (%d)", maxGOPPackets, n)
	}

	for _, c := range []struct {
		payload []byte
		want    bool
	}{{spsNAL, true}, {idrStart, true}, {idrMore, false}, {pSlice, false}, {stapSPS, true}, {[]byte{0x18}, false}, {nil, false}} {
		if got := startsKeyframe(c.payload); got != c.want {
			t.Errorf("startsKeyframe(% x) = %v, want %v", c.payload, got, c.want)
		}
	}
}
