package sqliteread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/eventchat/eventchat/projections"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// applicationID marks a SQLite file as an eventchat read store ("ECRS").
const applicationID = 0x45435253

// schemaVersion changes whenever a table or index below changes. A read
// store of an older version is never migrated in place: Open replaces it
// with an empty one of this version, which the projectors fold from the
// start of the log (a read model's new shape is a rebuild, docs/admin.md).
// A store of a newer version is refused: it belongs to a newer build.
// Version 7 adds the sessions' last_message_from, last_message_file_name,
// last_message_forward_from and last_message_forward_type; version 8 the
// sessions' group read positions; version 9 pairs the store with its
// search file.
const schemaVersion = 9

var schema = []string{
	`CREATE TABLE members (
		id TEXT PRIMARY KEY, tenant TEXT NOT NULL, account TEXT NOT NULL, phone TEXT NOT NULL,
		name TEXT NOT NULL, head_url TEXT NOT NULL, level TEXT NOT NULL, registered_at INTEGER NOT NULL,
		gender TEXT NOT NULL DEFAULT '', last_ip TEXT NOT NULL DEFAULT '', referrer TEXT NOT NULL DEFAULT ''
	) WITHOUT ROWID`,
	`CREATE INDEX members_by_account ON members (tenant, account)`,
	`CREATE INDEX members_by_phone ON members (tenant, phone)`,

	// A message keeps the columns queries filter on; the other fields live
	// in doc, a JSON object: each bound column costs the driver more than
	// the JSON encoding does.
	`CREATE TABLE messages (
		id TEXT PRIMARY KEY, chat_id TEXT NOT NULL, seq INTEGER NOT NULL, to_member TEXT NOT NULL,
		status TEXT NOT NULL, content TEXT NOT NULL, doc TEXT NOT NULL
	)`,
	`CREATE INDEX messages_by_chat ON messages (chat_id, seq)`,
	// No message of chat_id to reader below seq is Unread (no row: no
	// floor). MarkRead and CountUnread scan the chat from the floor instead
	// of keeping an index of unread messages, which would cost every insert
	// an index write; MarkRead raises the floor, the trigger lowers it under
	// a late message, so that the floor stays exact.
	`CREATE TABLE unread_floors (
		chat_id TEXT NOT NULL, reader TEXT NOT NULL, seq INTEGER NOT NULL,
		PRIMARY KEY (chat_id, reader)
	) WITHOUT ROWID`,
	`CREATE TRIGGER unread_below_floor AFTER INSERT ON messages WHEN NEW.status = '` + projections.StatusUnread + `'
	BEGIN
		UPDATE unread_floors SET seq = NEW.seq
		WHERE chat_id = NEW.chat_id AND reader = NEW.to_member AND seq > NEW.seq;
	END`,

	clearFloorsTable,
	mentionsTable,
	mentionsIndex,
	groupsTable,
	groupMembersTable,
	groupAppliesTable,
	groupAppliesIndex,
	groupMembersIndex,
	personalTable,
	personalIndex,
	noticesTable,
	noticesIndex,

	`CREATE TABLE sessions (
		member TEXT NOT NULL, peer TEXT NOT NULL, tenant TEXT NOT NULL, chat_type TEXT NOT NULL,
		chat_id TEXT NOT NULL, last_message_id TEXT NOT NULL, last_message_type TEXT NOT NULL,
		last_message_content TEXT NOT NULL, last_message_time INTEGER NOT NULL,
		unread_count INTEGER NOT NULL, top INTEGER NOT NULL, top_time INTEGER NOT NULL,
		dnd INTEGER NOT NULL, marked_unread INTEGER NOT NULL, hidden INTEGER NOT NULL,
		last_message_from TEXT NOT NULL, last_message_file_name TEXT NOT NULL, last_message_forward_from TEXT NOT NULL,
		last_message_forward_type TEXT NOT NULL,
		join_seq INTEGER NOT NULL, read_seq INTEGER NOT NULL, -- of a group chat, since schema 8
		PRIMARY KEY (member, peer)
	) WITHOUT ROWID`,
	sessionsByPeerIndex,

	`CREATE TABLE applies (
		id TEXT PRIMARY KEY, tenant TEXT NOT NULL, pair_id TEXT NOT NULL,
		from_member TEXT NOT NULL, to_member TEXT NOT NULL, remark TEXT NOT NULL,
		content TEXT NOT NULL, status TEXT NOT NULL, read_flag TEXT NOT NULL,
		created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
		hidden_from INTEGER NOT NULL DEFAULT 0, hidden_to INTEGER NOT NULL DEFAULT 0
	) WITHOUT ROWID`,
	`CREATE INDEX applies_by_from ON applies (from_member, created_at, id)`,
	`CREATE INDEX applies_by_to ON applies (to_member, created_at, id)`,

	`CREATE TABLE friends (
		member TEXT NOT NULL, friend_id TEXT NOT NULL, tenant TEXT NOT NULL,
		chat_id TEXT NOT NULL, remark TEXT NOT NULL, since INTEGER NOT NULL,
		blocked INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (member, friend_id)
	) WITHOUT ROWID`,

	`CREATE TABLE auth_sessions (
		id TEXT PRIMARY KEY, tenant TEXT NOT NULL, member TEXT NOT NULL,
		active INTEGER NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL
	) WITHOUT ROWID`,

	`CREATE TABLE checkpoints (
		projector TEXT PRIMARY KEY, position INTEGER NOT NULL
	) WITHOUT ROWID`,
	// The search file beside the store is this store's when it holds the
	// same pair (searchfile.go).
	`CREATE TABLE search_pair (id INTEGER NOT NULL)`,
	`INSERT INTO search_pair (id) VALUES (abs(random()))`,

	// The projection lease: one row, owner '' when free.
	`CREATE TABLE projection_lease (
		id INTEGER PRIMARY KEY CHECK (id = 1), owner TEXT NOT NULL, until_ns INTEGER NOT NULL
	)`,

	`PRAGMA application_id = ` + strconv.Itoa(applicationID),
	`PRAGMA user_version = ` + strconv.Itoa(schemaVersion),
}

// clearFloorsTable: no message of chat_id up to seq is shown to member,
// who cleared its history there.
const clearFloorsTable = `CREATE TABLE clear_floors (
		member TEXT NOT NULL, chat_id TEXT NOT NULL, seq INTEGER NOT NULL,
		PRIMARY KEY (member, chat_id)
	) WITHOUT ROWID`

// mentionsTable holds the mentions members have not acknowledged.
const (
	mentionsTable = `CREATE TABLE mentions (
		member TEXT NOT NULL, message_id TEXT NOT NULL, tenant TEXT NOT NULL, session_id TEXT NOT NULL,
		session_type TEXT NOT NULL, at INTEGER NOT NULL,
		PRIMARY KEY (member, message_id)
	) WITHOUT ROWID`
	mentionsIndex = `CREATE INDEX mentions_by_message ON mentions (message_id)`
)

// groupsTable keeps each group as a JSON document; group_members one row
// per member, found by group or by member.
const (
	groupsTable = `CREATE TABLE groups (
		id TEXT PRIMARY KEY, tenant TEXT NOT NULL, doc TEXT NOT NULL
	) WITHOUT ROWID`
	groupMembersTable = `CREATE TABLE group_members (
		group_id TEXT NOT NULL, member TEXT NOT NULL, tenant TEXT NOT NULL, role TEXT NOT NULL,
		nickname TEXT NOT NULL, muted_until INTEGER NOT NULL, joined_at INTEGER NOT NULL,
		PRIMARY KEY (group_id, member)
	) WITHOUT ROWID`
	groupMembersIndex = `CREATE INDEX group_members_by_member ON group_members (member, joined_at)`
)

// groupAppliesTable keeps the join requests of groups, found by group.
const (
	groupAppliesTable = `CREATE TABLE group_applies (
		id TEXT PRIMARY KEY, tenant TEXT NOT NULL, group_id TEXT NOT NULL, member TEXT NOT NULL,
		by_member TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
	) WITHOUT ROWID`
	groupAppliesIndex = `CREATE INDEX group_applies_by_group ON group_applies (group_id, created_at)`
)

// sessionsByPeerIndex finds the sessions of every member of a group chat.
const sessionsByPeerIndex = `CREATE INDEX IF NOT EXISTS sessions_by_peer ON sessions (peer)`

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// checkFile refuses an existing, non-empty file that is not SQLite before
// the driver touches it.
func checkFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqliteread: open %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("sqliteread: read %s: %w", path, err)
	}
	if !bytes.Equal(head[:n], sqliteHeader) {
		return fmt.Errorf("sqliteread: %s is not a SQLite database", path)
	}
	return nil
}

// ensureSchema creates the schema in an empty database, or checks that the
// database is a read store of this version.
// A read store of an older version is answered with olderSchema.
func ensureSchema(c *sqlitec.Conn, path string) (err error) {
	if err := c.Exec(`BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("sqliteread: begin schema check of %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.Exec(`ROLLBACK`))
		}
	}()
	var appID, version, objects int64
	for query, dst := range map[string]*int64{
		`PRAGMA application_id`:              &appID,
		`PRAGMA user_version`:                &version,
		`SELECT count(*) FROM sqlite_schema`: &objects,
	} {
		if err := c.QueryRow(query, func(s *sqlitec.Stmt) { *dst = s.Int(0) }); err != nil {
			return fmt.Errorf("sqliteread: read %s: %s: %w", path, query, err)
		}
	}
	switch {
	case appID == applicationID && version == schemaVersion:
		return c.Exec(`COMMIT`)
	case appID == applicationID && version < schemaVersion:
		return olderSchema{version: version}
	case appID == applicationID:
		return fmt.Errorf("sqliteread: %s has read-store schema version %d, newer than this build's %d: "+
			"run the newer build, or delete the file to fold the event log again", path, version, schemaVersion)
	case appID != 0 || objects != 0:
		return fmt.Errorf("sqliteread: %s is a SQLite database but not an eventchat read store", path)
	}
	for _, stmt := range schema {
		if err := c.Exec(stmt); err != nil {
			return fmt.Errorf("sqliteread: create schema in %s: %w", path, err)
		}
	}
	if err := c.Exec(`COMMIT`); err != nil {
		return fmt.Errorf("sqliteread: commit schema of %s: %w", path, err)
	}
	return nil
}

// olderSchema is the schema check's answer for a read store an older build
// made: Open replaces it.
type olderSchema struct{ version int64 }

func (e olderSchema) Error() string {
	return fmt.Sprintf("sqliteread: read-store schema version %d is older than %d", e.version, schemaVersion)
}
