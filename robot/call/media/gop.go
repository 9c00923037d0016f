package media

import "github.com/pion/rtp"

// gop holds the robot's video from its last keyframe on while the browser is not connected
// yet, so the first thing a connected browser gets is a picture it can decode at once — not
// frames it must throw away until the encoder's next keyframe, up to a second later (a
// gst-launch pipeline cannot answer a keyframe request). Only the video's forwarder uses it.
type gop struct {
	pkts  []*rtp.Packet // from the first packet of the last keyframe on
	bytes int
}

// A group of pictures longer than this is not kept (the browser waits for the next one).
const (
	maxGOPPackets = 4096
	maxGOPBytes   = 4 << 20
)

// keep adds p, starting over at the first packet of a keyframe; before the first keyframe,
// and past the bounds, nothing is kept.
func (g *gop) keep(p *rtp.Packet) {
	if startsKeyframe(p.Payload) && (len(g.pkts) == 0 || g.pkts[0].Timestamp != p.Timestamp) {
		g.reset() // a new keyframe (its SPS, PPS and slices share one timestamp)
		g.pkts = append(g.pkts, p.Clone())
		g.bytes = len(p.Payload)
		return
	}
	if len(g.pkts) == 0 {
		return
	}
	if len(g.pkts) >= maxGOPPackets || g.bytes+len(p.Payload) > maxGOPBytes {
		g.reset()
		return
	}
	g.pkts = append(g.pkts, p.Clone())
	g.bytes += len(p.Payload)
}

// take returns what is held, keyframe first, and empties the cache.
func (g *gop) take() []*rtp.Packet {
	held := g.pkts
	g.reset()
	return held
}

func (g *gop) reset() { g.pkts, g.bytes = nil, 0 }

// startsKeyframe reports whether an H.264 RTP payload (RFC 6184) carries a sequence
// parameter set or the start of an IDR slice: a single NAL unit, one inside an aggregation
// (STAP-A), or the first fragment (FU-A).
func startsKeyframe(payload []byte) bool {
	if len(payload) < 2 {
		return false
	}
	switch nal := payload[0] & 0x1f; nal {
	case 5, 7:
		return true
	case 24: // STAP-A: [size(2) NAL]...
		for i := 1; i+2 < len(payload); {
			size := int(payload[i])<<8 | int(payload[i+1])
			if size == 0 {
				return false
			}
			if t := payload[i+2] & 0x1f; t == 5 || t == 7 {
				return true
			}
			i += 2 + size
		}
	case 28: // FU-A: indicator, header (start bit, type)
		return payload[1]&0x80 != 0 && payload[1]&0x1f == 5
	}
	return false
}
