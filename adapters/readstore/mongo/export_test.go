package mongoread

// UseUpserts makes s write as it does on MongoDB, so that this path runs
// against FerretDB too.
func UseUpserts(s *Store) { s.ferretDB = false }

// OnFerretDB tells whether s found itself on FerretDB.
func OnFerretDB(s *Store) bool { return s.ferretDB }
