package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/eventstore/sqlitetopebble"
	"github.com/eventchat/eventchat/cmd/internal/imctl"
)

// sqliteLog is the file of the SQLite event log in the data directory, the
// default before the Pebble store.
const sqliteLog = "events.db"

// migrationReport is how many events a migration copies between two lines
// of progress in the log and in imctl store status.
const migrationReport = 100_000

// migrateSQLiteLog copies the data directory's SQLite event log into the
// Pebble store when the store does not exist yet. The SQLite file is left
// where it is, unread from then on, until the operator removes it.
func migrateSQLiteLog(ctx context.Context, cfg config, log *zap.Logger) error {
	src := filepath.Join(cfg.DataDir, sqliteLog)
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	status, migrated, err := imctl.ReadMigrationStatus(cfg.DataDir)
	if err != nil {
		return err
	}
	migrated = migrated && status.State == imctl.MigrationDone
	_, err = os.Stat(cfg.EventStore)
	switch {
	case err == nil && migrated:
		log.Info("the SQLite event log was migrated into the Pebble store and is no longer read: remove it once you no longer want it",
			zap.String("sqlite", src), zap.String("pebble", cfg.EventStore), zap.Time("migrated", status.Finished))
		return nil
	case err == nil:
		log.Warn("the data directory holds a SQLite event log beside the Pebble store, which is the one used",
			zap.String("sqlite", src), zap.String("pebble", cfg.EventStore))
		return nil
	case migrated:
		return fmt.Errorf("the Pebble store %s, into which %s was migrated on %s, is missing: restore it, "+
			"or remove %s to migrate the SQLite log again", cfg.EventStore, src, status.Finished.Format(time.RFC3339),
			filepath.Join(cfg.DataDir, imctl.MigrationStatusFile))
	case !errors.Is(err, os.ErrNotExist):
		return err
	}

	status = imctl.MigrationStatus{State: imctl.MigrationRunning, Source: src, Target: cfg.EventStore, Started: time.Now().UTC()}
	if err := imctl.WriteMigrationStatus(cfg.DataDir, status); err != nil {
		return fmt.Errorf("event log migration: %w", err)
	}
	log.Info("migrating the SQLite event log into the Pebble store", zap.String("sqlite", src), zap.String("pebble", cfg.EventStore))
	res, err := sqlitetopebble.Migrate(ctx, src, cfg.EventStore, migrationReport, func(p sqlitetopebble.Progress) {
		status.Copied, status.Total = p.Copied, p.Total
		log.Info("event log migration", zap.Uint64("copied", p.Copied), zap.Uint64("total", p.Total))
		if err := imctl.WriteMigrationStatus(cfg.DataDir, status); err != nil {
			log.Warn("event log migration: status not written", zap.Error(err))
		}
	})
	status.Finished = time.Now().UTC()
	if err != nil {
		status.State, status.Error = imctl.MigrationFailed, err.Error()
		return errors.Join(fmt.Errorf("event log migration: %w", err), imctl.WriteMigrationStatus(cfg.DataDir, status))
	}
	status.State, status.Hash = imctl.MigrationDone, res.Hash
	if err := imctl.WriteMigrationStatus(cfg.DataDir, status); err != nil {
		return fmt.Errorf("event log migration: %w", err)
	}
	log.Info("the SQLite event log is migrated: the same hash in both stores; it is no longer read, remove it once you no longer want it",
		zap.String("sqlite", src), zap.String("pebble", cfg.EventStore), zap.Uint64("events", res.Events), zap.String("hash", res.Hash))
	return nil
}
