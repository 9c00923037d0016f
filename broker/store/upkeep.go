package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"modernc.org/sqlite" // the SQLite driver's backup API
)

// Health reports whether the state store can take writes: it writes a heartbeat row, so a
// full disk that has been freed again shows as healthy without a restart.
func (s *Store) Health(ctx context.Context) error {
	return s.write(ctx, "state health", func(ctx context.Context) error {
		_, err := s.db.ExecContext(ctx, `INSERT INTO meta (name, value) VALUES ('heartbeat', ?)
			ON CONFLICT(name) DO UPDATE SET value = excluded.value`, s.clock.wall().UTC().Format(time.RFC3339Nano))
		return err
	})
}

// Size is the database's size in bytes as SQLite sees it (pages in use and free).
func (s *Store) Size(ctx context.Context) (int64, error) {
	var pages, size int64
	err := s.run(ctx, "state size", func(ctx context.Context) error {
		if err := s.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
			return err
		}
		return s.db.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size)
	})
	return pages * size, err
}

// Vacuum gives free pages back to the filesystem and truncates the write-ahead log.
func (s *Store) Vacuum(ctx context.Context) error {
	return s.run(ctx, "state vacuum", func(ctx context.Context) error {
		if _, err := s.db.ExecContext(ctx, `PRAGMA incremental_vacuum`); err != nil {
			return err
		}
		_, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
}

// Check runs an integrity check (PRAGMA quick_check) of the open database.
func (s *Store) Check(ctx context.Context) error {
	return s.run(ctx, "state check", func(ctx context.Context) error { return s.check(ctx) })
}

// Backup writes a consistent copy of the database to dst, which must not exist, with SQLite's
// online backup API on the Store's own connection (the only one that may read the file while
// it is open), then checks the copy's integrity. The copy is a complete database: open it
// with sqlite3, or restore it by stopping the broker and putting it in place of broker.db.
func (s *Store) Backup(ctx context.Context, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return invalidf("backup: %s exists already; name a new file", dst)
	}
	if err := s.flushAudit(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	err := s.run(ctx, "state backup", func(ctx context.Context) error {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		return conn.Raw(func(dc any) error {
			src, ok := dc.(interface {
				NewBackup(dstURI string) (*sqlite.Backup, error)
			})
			if !ok {
				return fmt.Errorf("the SQLite driver has no backup API")
			}
			b, err := src.NewBackup(dst)
			if err != nil {
				return err
			}
			for more := true; more; {
				if err := ctx.Err(); err != nil {
					b.Finish()
					return err
				}
				if more, err = b.Step(512); err != nil {
					b.Finish()
					return err
				}
			}
			return b.Finish()
		})
	})
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("backup to %s: %w", dst, err)
	}
	return checkCopy(ctx, dst)
}

// checkCopy opens a backup read-only and runs an integrity check on it.
func checkCopy(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&res); err != nil || res != "ok" {
		return fmt.Errorf("backup %s failed its integrity check: %v %s", path, err, res)
	}
	return nil
}
