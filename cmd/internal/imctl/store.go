package imctl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// MigrationStatusFile, in the data directory, is where the server records
// the migration of its SQLite event log into the Pebble store as it goes.
// imctl reads it from the directory, since the server migrates before it
// listens.
const MigrationStatusFile = "events-migration.json"

// The states of a migration.
const (
	MigrationRunning = "running"
	MigrationDone    = "done"
	MigrationFailed  = "failed"
)

// MigrationStatus is the content of MigrationStatusFile.
type MigrationStatus struct {
	State    string    `json:"state"`
	Source   string    `json:"source"`
	Target   string    `json:"target"`
	Copied   uint64    `json:"copied"`
	Total    uint64    `json:"total"`
	Hash     string    `json:"hash,omitempty"` // SHA-256 of the log, equal in both stores
	Error    string    `json:"error,omitempty"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
}

// WriteMigrationStatus replaces the status in dataDir, so that a reader
// never sees half of it.
func WriteMigrationStatus(dataDir string, s MigrationStatus) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dataDir, MigrationStatusFile)
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// ReadMigrationStatus reads the status in dataDir; found is false when no
// migration ever started there.
func ReadMigrationStatus(dataDir string) (s MigrationStatus, found bool, err error) {
	b, err := os.ReadFile(filepath.Join(dataDir, MigrationStatusFile))
	if errors.Is(err, os.ErrNotExist) {
		return MigrationStatus{}, false, nil
	}
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		return MigrationStatus{}, false, fmt.Errorf("the event log migration status in %s: %w", dataDir, err)
	}
	return s, true, nil
}

// showStoreStatus prints the migration status of the data directory.
func showStoreStatus(l local) error {
	s, found, err := ReadMigrationStatus(l.dataDir)
	if err != nil {
		return err
	}
	if !found {
		fmt.Fprintf(l.stdout, "no SQLite event log was migrated in %s\n", l.dataDir)
		return nil
	}
	if l.json {
		return json.NewEncoder(l.stdout).Encode(s)
	}
	printStoreStatus(l.stdout, s)
	return nil
}

func printStoreStatus(w io.Writer, s MigrationStatus) {
	fmt.Fprintf(w, "event log migration: %s\n", s.State)
	fmt.Fprintf(w, "  from %s to %s\n", s.Source, s.Target)
	frac := 1.0
	if s.Total > 0 {
		frac = float64(s.Copied) / float64(s.Total)
	}
	fmt.Fprintf(w, "  %s  %d/%d events copied\n", bar(frac), s.Copied, s.Total)
	fmt.Fprintf(w, "  started %s\n", s.Started.Format(time.RFC3339))
	if !s.Finished.IsZero() {
		fmt.Fprintf(w, "  finished %s\n", s.Finished.Format(time.RFC3339))
	}
	if s.Hash != "" {
		fmt.Fprintf(w, "  hash %s (the same in both stores)\n", s.Hash)
	}
	if s.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", s.Error)
	}
	if s.State == MigrationDone {
		fmt.Fprintf(w, "  %s is no longer read: remove it once you no longer want it\n", s.Source)
	}
}
