package speech

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf8"
)

// A spoken clip can carry the words it says in its WAV file: a RIFF LIST/INFO chunk with the
// text as INAM (the title a sound tool shows) and ISFT naming the tool that wrote it.
// `reachyctl speak` writes one, and the sim hub keeps it on the utterance it uploads, so a
// dev broker without a speech model can take those words as the room's transcript. The
// audio is untouched: a broker with a model transcribes it as ever, and a production broker
// never reads the chunk.

// SpokenTextTool is the ISFT value of a clip whose INAM is the text it says.
const SpokenTextTool = "reachyctl speak"

// MaxSpokenText bounds the text a clip may carry (a turn's text is at most 2000 bytes).
const MaxSpokenText = 2000

// WithSpokenText returns wav with a LIST/INFO chunk saying text, appended after its other
// chunks (a WAV that already carries one is refused: a chunk may appear once).
func WithSpokenText(wav []byte, text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > MaxSpokenText || !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return nil, errors.New("spoken text: 1 to 2000 bytes of UTF-8 text")
	}
	if _, err := inspectWAV(wav); err != nil {
		return nil, err
	}
	if _, ok := findChunk(wav, "LIST"); ok {
		return nil, errors.New("spoken text: the WAV already has a LIST chunk")
	}
	var info bytes.Buffer
	info.WriteString("INFO")
	sub := func(id, v string) {
		b := append([]byte(v), 0)
		info.WriteString(id)
		binary.Write(&info, binary.LittleEndian, uint32(len(b)))
		info.Write(b)
		if len(b)%2 == 1 {
			info.WriteByte(0)
		}
	}
	sub("INAM", text)
	sub("ISFT", SpokenTextTool)
	out := append([]byte(nil), wav...)
	if len(out)%2 == 1 {
		out = append(out, 0) // the chunk before ends word aligned
	}
	out = append(out, "LIST"...)
	out = binary.LittleEndian.AppendUint32(out, uint32(info.Len()))
	out = append(out, info.Bytes()...)
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, nil
}

// SpokenText returns the text a clip says, when a tool that writes it (SpokenTextTool)
// wrote it; ok is false for any other WAV, or one whose chunks do not parse.
func SpokenText(wav []byte) (text string, ok bool) {
	if _, err := inspectWAV(wav); err != nil {
		return "", false
	}
	list, ok := findChunk(wav, "LIST")
	if !ok || len(list) < 4 || string(list[:4]) != "INFO" {
		return "", false
	}
	var name, tool string
	for off := 4; off+8 <= len(list); {
		id := string(list[off : off+4])
		size := int(binary.LittleEndian.Uint32(list[off+4 : off+8]))
		body := off + 8
		if size < 0 || size > len(list)-body {
			return "", false
		}
		v := strings.TrimRight(string(list[body:body+size]), "\x00")
		switch id {
		case "INAM":
			name = v
		case "ISFT":
			tool = v
		}
		off = body + size + size%2
	}
	name = strings.TrimSpace(name)
	if tool != SpokenTextTool || name == "" || len(name) > MaxSpokenText || !utf8.ValidString(name) {
		return "", false
	}
	return name, true
}

// findChunk returns the body of the top-level chunk id, walking sizes without trusting them.
func findChunk(b []byte, id string) ([]byte, bool) {
	for off := 12; off+8 <= len(b); {
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		body := off + 8
		if size < 0 || size > len(b)-body {
			return nil, false
		}
		if string(b[off:off+4]) == id {
			return b[body : body+size], true
		}
		off = body + size + size%2
	}
	return nil, false
}
