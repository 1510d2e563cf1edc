package sqliteread

import (
	"context"
	"errors"
	"math"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// tx is one Update: every write goes through the writer connection.
type tx struct {
	c    *sqlitec.Conn
	st   *writeStatements
	sw   *searchWrites // nil when the connection does not write the search file
	doc  []byte        // reused to encode message docs
	over bool          // Update has returned
}

var _ projections.Tx = (*tx)(nil)

var errTxOver = errors.New("sqliteread: transaction used after its Update returned")

// check refuses work once the Update is over or its context done.
func (t *tx) check(ctx context.Context) error {
	if t.over {
		return errTxOver
	}
	return ctx.Err()
}

// Positions and sequences are stored as SQLite's signed 64-bit integers:
// uint64 -> int64 -> uint64 round-trips every value, and they compare in
// order below 2^63, which no log or chat reaches. bound clamps a query
// bound into that range.
func bound(u uint64) int64 {
	if u > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(u)
}
