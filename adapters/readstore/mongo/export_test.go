package mongoread

import "time"

// UseUpserts makes s write as it does on MongoDB, so that this path runs
// against FerretDB too.
func UseUpserts(s *Store) { s.ferretDB = false }

// OnFerretDB tells whether s found itself on FerretDB.
func OnFerretDB(s *Store) bool { return s.ferretDB }

// SetTimings sets how often the handles opened afterwards refresh the
// generation and how long old generations stay after a swap, and returns
// how to restore them.
func SetTimings(refresh, grace time.Duration) (restore func()) {
	r, g := refreshEvery, dropGrace
	refreshEvery, dropGrace = refresh, grace
	return func() { refreshEvery, dropGrace = r, g }
}

// DatabaseName is the database generation n of the store base lives in.
func DatabaseName(base string, n int64) string {
	name, err := dbName(base, n)
	if err != nil {
		panic(err)
	}
	return name
}
