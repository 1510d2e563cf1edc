package sqliteread

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/eventchat/eventchat/adapters/sqlitec"
	"github.com/eventchat/eventchat/nodes"
)

// claimsSuffix names the file of the nodes' claims, beside the read store:
// a rebuild or a new schema replaces the read store's file, which must not
// free the claims.
const claimsSuffix = ".claims"

// ClaimsPath is the file of the nodes' claims of the read store at path.
func ClaimsPath(path string) string { return path + claimsSuffix }

const (
	claimsSchemaSQL = `CREATE TABLE IF NOT EXISTS node_claims (
		name TEXT PRIMARY KEY, owner TEXT NOT NULL, until_ns INTEGER NOT NULL
	) WITHOUT ROWID`
	takeClaimSQL = `INSERT INTO node_claims (name, owner, until_ns) VALUES (?1, ?2, ?3)
		ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until_ns = excluded.until_ns
		WHERE owner = excluded.owner OR until_ns <= ?4`
	readClaimSQL = `SELECT owner, until_ns FROM node_claims WHERE name = ?`
	dropClaimSQL = `DELETE FROM node_claims WHERE name = ? AND owner = ?`
)

// Claims are the nodes' claims in a SQLite file, which the processes
// sharing the read store share.
type Claims struct {
	sideFile
	begin, commit, rollback *sqlitec.Stmt
	take, read, drop        *sqlitec.Stmt
}

var _ nodes.Claims = (*Claims)(nil)

// OpenClaims opens the claims kept in the file at path, creating it when
// absent.
func OpenClaims(path string) (*Claims, error) {
	c := &Claims{}
	err := c.open(path, "claims", claimsSchemaSQL, map[**sqlitec.Stmt]string{
		&c.begin: `BEGIN IMMEDIATE`, &c.commit: `COMMIT`, &c.rollback: `ROLLBACK`,
		&c.take: takeClaimSQL, &c.read: readClaimSQL, &c.drop: dropClaimSQL,
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// TakeClaim gives the claim name to owner until the time until when it is
// free, has ended at now or is owner's; it returns the claim afterwards.
func (c *Claims) TakeClaim(ctx context.Context, name, owner string, now, until time.Time) (nodes.Claim, error) {
	var claim nodes.Claim
	err := c.inWrite(ctx, func() error {
		c.take.BindText(name)
		c.take.BindText(owner)
		c.take.BindInt(until.UnixNano())
		c.take.BindInt(now.UnixNano())
		if err := c.take.Exec(); err != nil {
			return err
		}
		c.read.BindText(name)
		for c.read.Next() {
			claim = nodes.Claim{Owner: c.read.Text(0), Until: time.Unix(0, c.read.Int(1))}
		}
		return c.read.Done()
	})
	if err != nil {
		return nodes.Claim{}, fmt.Errorf("sqliteread: take the claim %s: %w", name, err)
	}
	return claim, nil
}

// DropClaim frees the claim name if owner holds it.
func (c *Claims) DropClaim(ctx context.Context, name, owner string) error {
	err := c.inWrite(ctx, func() error {
		c.drop.BindText(name)
		c.drop.BindText(owner)
		return c.drop.Exec()
	})
	if err != nil {
		return fmt.Errorf("sqliteread: drop the claim %s: %w", name, err)
	}
	return nil
}

// inWrite runs fn in a write transaction of its own.
func (c *Claims) inWrite(ctx context.Context, fn func() error) error {
	return c.run(ctx, func() error {
		if err := c.begin.Exec(); err != nil {
			return err
		}
		err := fn()
		if err == nil {
			err = c.commit.Exec()
		}
		if err != nil && c.conn.InTransaction() {
			err = errors.Join(err, c.rollback.Exec())
		}
		return err
	})
}
