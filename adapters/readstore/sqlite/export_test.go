package sqliteread

// SearchIndexOnly makes every search of three characters or more go
// through the index, however few messages the viewer's chats hold, over
// the newest window messages before the chats are read, and returns the
// function that undoes it.
func SearchIndexOnly(window int64) func() {
	oldFactor, oldWindow := scanFactor, walkWindow
	scanFactor, walkWindow = 0, window
	return func() { scanFactor, walkWindow = oldFactor, oldWindow }
}
