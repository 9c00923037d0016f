package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockFile is the file in the state directory a running broker holds locked, with its
// process ID written in it.
const LockFile = "broker.lock"

// ErrDirInUse is what HoldDir returns when another broker holds the directory.
var ErrDirInUse = errors.New("state directory in use")

// DirInUse says which process holds a state directory.
type DirInUse struct {
	Dir string
	PID int // 0: the holder has not written its PID (yet)
}

func (e *DirInUse) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "PID " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("state directory %s is in use by %s (a reachy-broker using it); stop that broker, or give this one a state directory of its own (--state-dir)", e.Dir, who)
}

func (e *DirInUse) Unwrap() error { return ErrDirInUse }

// DirHold is a broker's hold on its state directory; Release lets it go.
type DirHold struct{ f *os.File }

// Release unlocks the directory (closing the lock file; the file stays, its PID stale).
func (h *DirHold) Release() error {
	if h == nil || h.f == nil {
		return nil
	}
	return h.f.Close()
}

// HoldDir takes the state directory for this process, before its database opens: an
// exclusive lock (flock) on LockFile, which holds this process's PID. A second
// broker on the same directory gets *DirInUse naming the holder's PID, at once. The
// lock belongs to the open file, not to the database: it never touches SQLite's own locks
// (a POSIX lock on the database file would be dropped by any close of it). The kernel lets
// it go when the process ends, however it ends; a stale PID in the file means nothing.
//
// create makes a missing directory (dev mode); otherwise a missing directory is left for
// Open to report (a state disk that did not mount is not created here).
func HoldDir(dir string, create bool) (*DirHold, error) {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("state directory %s: %w", dir, err)
		}
	}
	path := filepath.Join(dir, LockFile)
	// Never through a link someone put there: the lock file is truncated and written.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, os.ErrNotExist) && !create {
		return &DirHold{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state directory lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &DirInUse{Dir: dir, PID: holderPID(f)}
		}
		return nil, fmt.Errorf("state directory lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("state directory lock %s: %w", path, err)
		}
	} else {
		f.Close()
		return nil, fmt.Errorf("state directory lock %s: %w", path, err)
	}
	return &DirHold{f: f}, nil
}

// holderPID reads the PID the holder wrote, waiting a little for a holder that has just
// taken the lock and not written it yet.
func holderPID(f *os.File) int {
	buf := make([]byte, 32)
	for range 20 {
		n, _ := f.ReadAt(buf, 0)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n]))); err == nil && pid > 0 {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}
