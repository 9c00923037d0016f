package whisper

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

type modelInfo struct {
	nVocab, audioCtx, audioState, audioHead, audioLayer int32
	textCtx, textState, textHead, textLayer, nMels      int32
	isTest                                              bool
}

// inspectModel checks a model file's header and vocabulary in Go before whisper.cpp sees it:
// a C++ exception on a bad file would end the whole process.
func inspectModel(path string) (modelInfo, error) {
	var mi modelInfo
	f, err := os.Open(path)
	if err != nil {
		return mi, fmt.Errorf("load whisper model %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return mi, fmt.Errorf("load whisper model %s: %w", path, err)
	}
	if st.IsDir() {
		return mi, fmt.Errorf("load whisper model %s: is a directory", path)
	}
	r := bufio.NewReaderSize(f, 1<<16)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("load whisper model %s: not a whisper ggml model: %s", path, fmt.Sprintf(format, args...))
	}
	var hdr [12]int32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return mi, bad("file too short")
	}
	if uint32(hdr[0]) != ggmlMagic {
		return mi, bad("bad magic %#x", uint32(hdr[0]))
	}
	mi = modelInfo{nVocab: hdr[1], audioCtx: hdr[2], audioState: hdr[3], audioHead: hdr[4], audioLayer: hdr[5],
		textCtx: hdr[6], textState: hdr[7], textHead: hdr[8], textLayer: hdr[9], nMels: hdr[10]}
	switch {
	case mi.nVocab < 51864 || mi.nVocab > 51866:
		return mi, bad("n_vocab %d", mi.nVocab)
	case mi.audioState <= 0 || mi.audioState != mi.textState:
		return mi, bad("audio and text state differ (%d, %d)", mi.audioState, mi.textState)
	case mi.audioHead <= 0 || mi.textHead <= 0 || mi.audioState%mi.audioHead != 0 || mi.textState%mi.textHead != 0:
		return mi, bad("head counts do not divide the state")
	case mi.audioCtx <= 0 || mi.audioCtx > 1500 || mi.textCtx <= 0 || mi.textCtx > 448:
		return mi, bad("context sizes %d/%d", mi.audioCtx, mi.textCtx)
	case mi.audioLayer <= 0 || mi.audioLayer > 64 || mi.textLayer <= 0 || mi.textLayer > 64:
		return mi, bad("layer counts %d/%d", mi.audioLayer, mi.textLayer)
	case mi.nMels != 80 && mi.nMels != 128:
		return mi, bad("n_mels %d", mi.nMels)
	}
	var fil [2]int32
	if err := binary.Read(r, binary.LittleEndian, &fil); err != nil {
		return mi, bad("truncated mel filters")
	}
	if fil[0] <= 0 || fil[0] > 128 || fil[1] <= 0 || fil[1] > 1024 {
		return mi, bad("mel filter size %dx%d", fil[0], fil[1])
	}
	if _, err := r.Discard(int(fil[0]) * int(fil[1]) * 4); err != nil {
		return mi, bad("truncated mel filters")
	}
	var n int32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n <= 0 || n > mi.nVocab {
		return mi, bad("vocabulary size")
	}
	haveSpace := false
	tok := make([]byte, 0, 64)
	for i := int32(0); i < n; i++ {
		var l uint32
		if err := binary.Read(r, binary.LittleEndian, &l); err != nil {
			return mi, bad("truncated vocabulary")
		}
		if l > 1024 {
			return mi, bad("vocabulary entry %d is %d bytes", i, l)
		}
		tok = tok[:l]
		if _, err := io.ReadFull(r, tok); err != nil {
			return mi, bad("truncated vocabulary")
		}
		switch string(tok) {
		case " ":
			haveSpace = true
		case TestModelMarker:
			mi.isTest = true
		}
	}
	if !haveSpace {
		return mi, bad(`vocabulary lacks the " " token`)
	}
	// At least one tensor header must follow.
	if _, err := r.Peek(12); err != nil {
		if errors.Is(err, io.EOF) {
			return mi, bad("no tensors")
		}
		return mi, bad("%v", err)
	}
	return mi, nil
}
