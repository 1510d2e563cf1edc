package sqliteread

import (
	"context"
	"fmt"
)

const (
	setCheckpointSQL = `INSERT INTO checkpoints (projector, position) VALUES (?, ?)
		ON CONFLICT (projector) DO UPDATE SET position = excluded.position`
	checkpointsSQL = `SELECT projector, position FROM checkpoints`
)

func (t *tx) SetCheckpoint(ctx context.Context, projector string, position uint64) error {
	err := t.check(ctx)
	if err == nil {
		st := t.st.setCheckpoint
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
