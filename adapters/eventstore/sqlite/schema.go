package sqlitestore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// applicationID marks a SQLite file as one of our event stores ("EVCH"), so
// that a foreign database is refused instead of silently gaining our table.
const applicationID = 0x45564348

// schemaVersion is stored in PRAGMA user_version. Version 2 stores UUID
// event ids as 16 bytes (see eventid.go); version 1 stored every id as
// text, and a store of version 1 is migrated when opened.
const schemaVersion = 2

// pageSize is the page size of new stores. Each event writes about two
// pages of the WAL whatever their size (a random leaf of the id index, the
// last leaf of its stream's), and the WAL costs by the byte: 2 KiB pages
// cost less than the default 4 KiB, 1 KiB pages no less than 2 KiB.
const pageSize = 2048

// createSchema: id holds a UUID's 16 bytes or any other id as text (see
// eventid.go); TEXT affinity leaves blobs as they are.
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
func prepareSchema(c *sqlitec.Conn) error {
	if err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		return classifyOpenError(err)
	}
	if err := checkOrCreate(c); err != nil {
		_ = c.Exec("ROLLBACK")
		return err
	}
	if err := c.Exec("COMMIT"); err != nil {
		return fmt.Errorf("sqlitestore: create schema: %w", err)
	}
	return nil
}

func checkOrCreate(c *sqlitec.Conn) error {
	var appID, version, objects int64
	for query, dst := range map[string]*int64{
		"PRAGMA application_id":              &appID,
		"PRAGMA user_version":                &version,
		"SELECT count(*) FROM sqlite_schema": &objects,
	} {
		if err := c.QueryRow(query, func(s *sqlitec.Stmt) { *dst = s.Int(0) }); err != nil {
			return classifyOpenError(err)
		}
	}
	switch {
	case appID == applicationID && version == schemaVersion:
		return nil
	case appID == applicationID && version == 1:
		return migrateFrom1(c)
	case appID == applicationID:
		return fmt.Errorf("%w: schema version %d, this build reads %d", ErrNotEventStore, version, schemaVersion)
	case appID != 0 || objects > 0:
		return fmt.Errorf("%w: database has application id %d and %d schema objects", ErrNotEventStore, appID, objects)
	}
	for _, stmt := range []string{
		createSchema,
		fmt.Sprintf("PRAGMA application_id = %d", applicationID),
		fmt.Sprintf("PRAGMA user_version = %d", schemaVersion),
	} {
		if err := c.Exec(stmt); err != nil {
			return fmt.Errorf("sqlitestore: create schema: %w", err)
		}
	}
	return nil
}

// migrateFrom1 stores the UUID ids of a version 1 store as 16 bytes, in
// the transaction that checked the version.
func migrateFrom1(c *sqlitec.Conn) error {
	canonical := strings.Repeat("[0-9a-f]", 8) + "-" + strings.Repeat("[0-9a-f]", 4) + "-" +
		strings.Repeat("[0-9a-f]", 4) + "-" + strings.Repeat("[0-9a-f]", 4) + "-" + strings.Repeat("[0-9a-f]", 12)
	for _, stmt := range []string{
		fmt.Sprintf("UPDATE events SET id = unhex(replace(id, '-', '')) WHERE id GLOB '%s'", canonical),
		fmt.Sprintf("PRAGMA user_version = %d", schemaVersion),
	} {
		if err := c.Exec(stmt); err != nil {
			return fmt.Errorf("sqlitestore: migrate schema version 1 to %d: %w", schemaVersion, err)
		}
	}
	return nil
}

// classifyOpenError tells a file that is not a SQLite database apart from
// other failures (a lock held elsewhere, a missing directory).
func classifyOpenError(err error) error {
	if sqlitec.HasCode(err, sqlitec.CodeNotADB) || sqlitec.HasCode(err, sqlitec.CodeCorrupt) {
		return fmt.Errorf("%w: %w", ErrNotEventStore, err)
	}
	return fmt.Errorf("sqlitestore: open: %w", err)
}
