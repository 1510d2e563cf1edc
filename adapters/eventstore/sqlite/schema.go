package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// applicationID marks a SQLite file as one of our event stores ("EVCH"), so
// that a foreign database is refused instead of silently gaining our table.
const applicationID = 0x45564348

// schemaVersion is stored in PRAGMA user_version.
const schemaVersion = 1

const createSchema = `
CREATE TABLE events (
	position INTEGER PRIMARY KEY,
	id       TEXT    NOT NULL UNIQUE,
	stream   TEXT    NOT NULL,
	revision INTEGER NOT NULL,
	type     TEXT    NOT NULL,
	data     BLOB    NOT NULL,
	metadata TEXT    NOT NULL,
	UNIQUE (stream, revision)
);`

// ErrNotEventStore is returned by Open for a file that is not one of our
// event stores.
var ErrNotEventStore = errors.New("sqlitestore: not an event store")

// prepareSchema checks the marker of an existing store or, for an empty
// database, creates the schema. It runs before WAL mode is switched on, so a
// foreign file is left untouched.
func prepareSchema(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return classifyOpenError(err)
	}
	if err := checkOrCreate(ctx, conn); err != nil {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("sqlitestore: create schema: %w", err)
	}
	return nil
}

func checkOrCreate(ctx context.Context, conn *sql.Conn) error {
	var appID, version, tables int64
	if err := conn.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return classifyOpenError(err)
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return classifyOpenError(err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return classifyOpenError(err)
	}
	switch {
	case appID == applicationID && version == schemaVersion:
		return nil
	case appID == applicationID:
		return fmt.Errorf("%w: schema version %d, this build reads %d", ErrNotEventStore, version, schemaVersion)
	case appID != 0 || tables > 0:
		return fmt.Errorf("%w: database has application id %d and %d schema objects", ErrNotEventStore, appID, tables)
	}
	for _, stmt := range []string{
		createSchema,
		fmt.Sprintf("PRAGMA application_id = %d", applicationID),
		fmt.Sprintf("PRAGMA user_version = %d", schemaVersion),
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("sqlitestore: create schema: %w", err)
		}
	}
	return nil
}

// classifyOpenError tells a file that is not a SQLite database apart from
// other failures (a lock held elsewhere, a missing directory).
func classifyOpenError(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("%w: %w", ErrNotEventStore, err)
		}
	}
	return fmt.Errorf("sqlitestore: open: %w", err)
}
