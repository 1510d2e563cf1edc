package sqliteread

// SearchIndexOnly makes every search of three characters or more go
// through the index, however few messages the viewer's chats hold, for at
// most walk matches before the chats are read, and returns the function
// that undoes it.
func SearchIndexOnly(walk int) func() {
	oldScan, oldWalk := scanBelow, walkLimit
	scanBelow, walkLimit = 0, walk
	return func() { scanBelow, walkLimit = oldScan, oldWalk }
}
