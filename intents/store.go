package intents

import (
	"fmt"
	"sync/atomic"
)

// Store holds the live table and swaps it atomically on reload. A reload that fails keeps
// the table in use and reports why. Safe for concurrent use.
type Store struct {
	path  string
	table atomic.Pointer[Table]
}

// NewStore loads path (the demo home when path is empty) and returns a store serving it.
func NewStore(path string) (*Store, error) {
	s := &Store{path: path}
	t, err := s.load()
	if err != nil {
		return nil, err
	}
	s.table.Store(t)
	return s, nil
}

// Table returns the table in use.
func (s *Store) Table() *Table { return s.table.Load() }

// Reload reads the file again. On any error the old table stays in use.
func (s *Store) Reload() error {
	t, err := s.load()
	if err != nil {
		return fmt.Errorf("reload kept the previous intent table: %w", err)
	}
	s.table.Store(t)
	return nil
}

func (s *Store) load() (*Table, error) {
	if s.path == "" {
		return LoadDemo()
	}
	return LoadFile(s.path)
}
