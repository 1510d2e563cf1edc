package es

// Personal is an event that holds personal data of one member: the
// payload's string fields named by PersonalFields (top-level, or a path
// into a nested object such as "favourite.content") are sealed
// under that member's data key when appended, and opened when read, so
// that destroying the key erases them from every copy of the log
// (crypto-shredding). Commands and projections only ever see them open.
type Personal interface {
	Event
	// PersonalFields names the payload field holding the member's id ("":
	// the member is the id of the member stream the event is in) and the
	// fields sealed under its key.
	PersonalFields() (owner string, fields []string)
}

// Erased is what a personal field reads as once its member's key is
// destroyed: the projections show a placeholder for it.
const Erased = "\x00erased"

// Erasure is an event that erases the member whose member stream it is
// in: every personal field of that member reads as Erased after it, on
// every node, even before its key is destroyed.
type Erasure interface {
	Event
	ErasesMember()
}
