package sqliteread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The read store is never synced while it is open: commits leave their WAL
// pages unsynced and the checkpointer copies them into the database with
// synchronous = OFF, so that the event log's fsync is the only one on the
// disk. A process killed leaves its writes in the page cache, whole; a
// machine that stops may leave the files torn, in a way their content
// cannot tell. So each process that opens the store marks it in a file
// beside it, "<path>.open-<pid>" holding the machine's boot id, synced
// before the store is used; Close syncs the files, then removes the
// marker. A marker of an earlier boot is a store that was open when the
// machine stopped: Open discards it, and the projections fold the log into
// an empty one.

const markerInfix = ".open-"

// bootIDFile names the current boot of a Linux machine.
const bootIDFile = "/proc/sys/kernel/random/boot_id"

// bootID is the current boot's id, "" where the system does not tell: then
// every marker a process left is taken as from an earlier boot.
func bootID() string {
	b, err := os.ReadFile(bootIDFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// discardTorn removes the markers of path left by processes that are gone,
// and the store itself when one of them is from an earlier boot, which it
// reports.
func discardTorn(path string) (bool, error) {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("sqliteread: list %s: %w", dir, err)
	}
	boot := bootID()
	var stale []string
	torn := false
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), base+markerInfix)
		if !ok {
			continue
		}
		if _, err := strconv.Atoi(rest); err != nil {
			continue // another store's marker, one whose name extends this one's
		}
		marker := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(marker)
		if errors.Is(err, os.ErrNotExist) {
			continue // closed meanwhile
		}
		if err != nil {
			return false, fmt.Errorf("sqliteread: read %s: %w", marker, err)
		}
		markBoot, pid, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		if boot == "" || markBoot != boot {
			torn = true
		} else if n, err := strconv.Atoi(pid); err == nil && alive(n) {
			continue // open in a running process
		}
		stale = append(stale, marker)
	}
	if torn {
		if err := removeDB(path); err != nil {
			return false, fmt.Errorf("sqliteread: discard %s: %w", path, err)
		}
	}
	for _, m := range stale {
		if err := removeFile(m); err != nil {
			return false, err
		}
	}
	return torn, nil
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// markOpen writes this process's marker of path, synced, and returns its
// name.
func markOpen(path string) (string, error) {
	marker := path + markerInfix + strconv.Itoa(os.Getpid())
	f, err := os.OpenFile(marker, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return "", fmt.Errorf("sqliteread: mark %s open: %w", path, err)
	}
	_, err = f.WriteString(bootID() + " " + strconv.Itoa(os.Getpid()) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err == nil {
		err = syncPath(filepath.Dir(path))
	}
	if err != nil {
		_ = os.Remove(marker)
		return "", fmt.Errorf("sqliteread: mark %s open: %w", path, err)
	}
	return marker, nil
}

// markClosed syncs the store's files, closed, and removes marker.
func markClosed(path, marker string) error {
	for _, p := range []string{path, path + "-wal"} {
		if err := syncFile(p); err != nil {
			return err
		}
	}
	if err := removeFile(marker); err != nil {
		return err
	}
	return syncPath(filepath.Dir(path))
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqliteread: sync %s: %w", path, err)
	}
	err = f.Sync()
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("sqliteread: sync %s: %w", path, err)
	}
	return nil
}
