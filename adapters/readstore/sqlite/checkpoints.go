package sqliteread

import (
	"context"
	"fmt"
)

const (
	setCheckpointSQL = `INSERT INTO checkpoints (projector, position) VALUES (?, ?)
		ON CONFLICT (projector) DO UPDATE SET position = excluded.position`
	setSearchCheckpointSQL = `INSERT INTO search_checkpoints (projector, position) VALUES (?, ?)
		ON CONFLICT (projector) DO UPDATE SET position = excluded.position`
	// checkpointsSQL reads both files' checkpoints: a projector's is in
	// the file that holds what it folded.
	checkpointsSQL = `SELECT projector, position FROM checkpoints
		UNION ALL SELECT projector, position FROM search_checkpoints`
)

func (t *tx) SetCheckpoint(ctx context.Context, projector string, position uint64) error {
	err := t.check(ctx)
	st := t.st.setCheckpoint
	if trails(projector) {
		if t.sw == nil {
			err = errNoSearchWrites
		} else {
			st = t.sw.setCheckpoint
		}
	}
	if err == nil {
		st.BindText(projector)
		st.BindInt(int64(position))
		err = st.Exec()
	}
	if err != nil {
		return fmt.Errorf("sqliteread: set checkpoint %s: %w", projector, err)
	}
	return nil
}

// Checkpoints returns the committed position of every projector.
func (s *Store) Checkpoints(ctx context.Context) (map[string]uint64, error) {
	out := map[string]uint64{}
	err := s.read(ctx, func(r *readStatements) error {
		st := r.checkpoints
		for st.Next() {
			out[st.Text(0)] = uint64(st.Int(1))
		}
		return st.Done()
	})
	if err != nil {
		return nil, fmt.Errorf("sqliteread: read checkpoints: %w", err)
	}
	return out, nil
}
