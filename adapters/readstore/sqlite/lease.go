package sqliteread

import (
	"context"
	"fmt"
	"time"
)

const (
	takeLeaseSQL = `INSERT INTO projection_lease (id, owner, until_ns) VALUES (1, ?1, ?2)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, until_ns = excluded.until_ns
		WHERE owner = excluded.owner OR owner = '' OR until_ns <= ?3`
	leaseHolderSQL = `SELECT owner FROM projection_lease WHERE id = 1`
	dropLeaseSQL   = `UPDATE projection_lease SET owner = '', until_ns = 0 WHERE id = 1 AND owner = ?`
)

// TakeLease gives the projection lease to owner until the time until when
// it is free, has ended at now or is owner's; it returns the holder.
func (s *Store) TakeLease(ctx context.Context, owner string, now, until time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	holder, err := s.inWrite(ctx, func() (string, error) {
		st := s.w.takeLease
		st.BindText(owner)
		st.BindInt(until.UnixNano())
		st.BindInt(now.UnixNano())
		if err := st.Exec(); err != nil {
			return "", err
		}
		return s.leaseHolder()
	})
	if err != nil {
		return "", fmt.Errorf("sqliteread: take the lease: %w", err)
	}
	if holder != owner {
		owner = ""
	}
	s.leaseOwner.Store(&owner)
	return holder, nil
}

// DropLease frees the projection lease if owner holds it.
func (s *Store) DropLease(ctx context.Context, owner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.inWrite(ctx, func() (string, error) {
		st := s.w.dropLease
		st.BindText(owner)
		return "", st.Exec()
	})
	if err != nil {
		return fmt.Errorf("sqliteread: drop the lease: %w", err)
	}
	if s.owner() == owner {
		s.leaseOwner.Store(new(string))
	}
	return nil
}

// owner is whom this handle last took the projection lease for.
func (s *Store) owner() string {
	if o := s.leaseOwner.Load(); o != nil {
		return *o
	}
	return ""
}

// inWrite runs fn in a write transaction of its own; s.mu must be held.
func (s *Store) inWrite(ctx context.Context, fn func() (string, error)) (string, error) {
	if s.writer == nil {
		return "", errClosed
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := s.w.begin.Exec(); err != nil {
		return "", err
	}
	out, err := fn()
	if err == nil {
		err = s.w.commit.Exec()
	}
	if err != nil {
		rollback(s.writer, &s.w)
		return "", err
	}
	return out, nil
}

// leaseHolder reads who holds the lease ("" when nobody does) on the
// writer connection.
func (s *Store) leaseHolder() (string, error) { return leaseHolder(&s.w) }

// leaseHolder reads who holds the lease with w's statement.
func leaseHolder(w *writeStatements) (string, error) {
	st := w.leaseHolder
	holder := ""
	for st.Next() {
		holder = st.Text(0)
	}
	return holder, st.Done()
}
