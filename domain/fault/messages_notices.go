package fault

// Message keys of system notices and of the delivery of messages to a
// device.
const (
	MsgNoticesNone      = "Please select the notices first"
	MsgNoticesTooMany   = "At most 100 notices at once"
	MsgNoticeIDInvalid  = "a notice id is digits"
	MsgNoticeNotFound   = "The notice is not found"
	MsgNoticeTabInvalid = "tab must be all, friends, system or groups"
	MsgDeliveryNone     = "give the position or the ids of the messages received"
	MsgDeliveryAhead    = "position is ahead of the event log"
	MsgPositionInvalid  = "a position is a whole number"
)

// Texts of the notices, with the names of the member and the group they
// tell of.
const (
	NoticeFriendRequest  = "%s sent you a friend request"
	NoticeFriendAccepted = "%s accepted your friend request"
	NoticeFriendRefused  = "%s refused your friend request"
	NoticeGroupInvite    = "%s invited you to the group %s"
	NoticeGroupOwner     = "%s made you the owner of the group %s"
	// The new device's system, the code and its validity in minutes.
	NoticeVerification     = "A new device (%s) logged in to your account. Verification code: %s, valid for %d minutes"
	NoticeFeedbackReply    = "The back-end administrator replied to your feedback"
	NoticeGroupJoinRequest = "%s invited %s to join the group %s"
)
