package fault

// Message keys of message search.
const (
	MsgSearchEmpty   = "type something to search for"
	MsgSearchTooLong = "search text too long, at most 100 characters"
	MsgSearchTarget  = "give to and chatType together, or neither"
)
