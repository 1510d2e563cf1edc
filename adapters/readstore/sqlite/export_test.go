package sqliteread

// SearchIndexOnly makes every search of three characters or more go
// through the index, however few messages the viewer's chats hold, and
// returns the function that undoes it.
func SearchIndexOnly() func() {
	old := scanBelow
	scanBelow = 0
	return func() { scanBelow = old }
}
