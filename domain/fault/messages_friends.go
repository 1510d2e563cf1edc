package fault

// Message keys of friend management.
const (
	MsgRemarkTooLong         = "remark too long, at most 200 characters"
	MsgBlockedByFriend       = "This friend is not accepting your messages"
	MsgApplyIDsEmpty         = "select requests first"
	MsgTooManyApplies        = "at most 99 requests at once"
	MsgFriendCategoryMissing = "friend category not found"
)
