package store

import (
	"fmt"
	"regexp"
)

// InvalidError is a request the store refused before touching the database (a bad device
// name or scope, a backup file that exists already), as opposed to a failure of the
// database. Its message says what to change.
type InvalidError struct{ msg string }

func (e *InvalidError) Error() string { return e.msg }

func invalidf(format string, args ...any) error {
	return &InvalidError{msg: fmt.Sprintf(format, args...)}
}

var deviceNameRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,62}$`)

// ValidDeviceName reports whether name may name a device (a token's holder, a configured
// robot): letters, digits, dots, dashes and underscores, at most 63, starting with a letter
// or digit.
func ValidDeviceName(name string) bool { return deviceNameRE.MatchString(name) }
