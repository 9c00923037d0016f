package calltest

import (
	"os"
	"strconv"
	"strings"
)

// mediaMarker is robot/call's MediaProcessEnv as it appears in a media process's
// environment (calltest cannot import robot/call: robot/call's own tests import calltest).
const mediaMarker = "REACHY_CALL_MEDIA=1"

// Proc is a live process below another.
type Proc struct {
	PID   int
	Name  string // its command name (comm)
	Media bool   // a call's media process (reachy-call, or a test binary serving the media)
}

// Descendants lists the live (not zombie) processes below root, at any depth.
func Descendants(root int) []Proc {
	type info struct {
		ppid  int
		name  string
		state string
	}
	all := map[int]info{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(st)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		all[pid] = info{ppid: ppid, name: s[i+1 : j], state: f[0]}
	}
	var out []Proc
	var walk func(int)
	walk = func(parent int) {
		for pid, in := range all {
			if in.ppid != parent || in.state == "Z" || in.state == "X" {
				continue
			}
			out = append(out, Proc{PID: pid, Name: in.name, Media: isMedia(pid)})
			walk(pid)
		}
	}
	walk(root)
	return out
}

func isMedia(pid int) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range strings.Split(string(env), "\x00") {
		if kv == mediaMarker {
			return true
		}
	}
	return false
}

// MediaProcesses counts the call media below root still alive: media processes and
// gst-launch pipelines at any depth (close the test's own Browser first: its pipelines are
// gst-launch too).
func MediaProcesses(root int) int {
	n := 0
	for _, p := range Descendants(root) {
		if p.Media || strings.HasPrefix(p.Name, "gst-launch") {
			n++
		}
	}
	return n
}

// Alive reports whether pid is a live process (not a zombie).
func Alive(pid int) bool {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(st)
	j := strings.LastIndexByte(s, ')')
	if j < 0 {
		return false
	}
	f := strings.Fields(s[j+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
