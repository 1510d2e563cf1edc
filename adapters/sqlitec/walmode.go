package sqlitec

// WALWrites is how a connection writes the WAL file of a database in WAL
// mode.
type WALWrites int

const (
	// DirectWAL is SQLite's own way: two system calls per page written.
	DirectWAL WALWrites = iota
	// BufferedWAL gathers the pages of a commit in memory and writes them
	// when the commit syncs the WAL, 64 KiB per system call. The connection
	// runs with synchronous = FULL, and must keep it.
	BufferedWAL
	// DeferredSyncWAL is BufferedWAL without the fsync: a commit returns
	// once its pages are written, and other connections see it before it is
	// durable. SyncWAL makes every commit so far durable.
	//
	// A checkpoint copies the WAL into the database trusting that the WAL
	// is synced, so that a copy cut short can be redone from it: such a
	// connection runs with wal_autocheckpoint = 0, syncs before it closes
	// (which checkpoints), and must call SyncWAL before any checkpoint it
	// runs. Checkpoints on other connections sync the WAL themselves.
	DeferredSyncWAL
)

// SyncWAL makes the commits of a DeferredSyncWAL connection durable: it
// fsyncs its WAL file. Unlike the other methods, it may run while another
// goroutine uses the connection, until Close.
func (c *Conn) SyncWAL() error {
	if c.dbName == 0 {
		return nil
	}
	return syncWAL(c.dbName)
}
