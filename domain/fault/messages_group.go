package fault

// Message keys of groups.
const (
	MsgGroupNotFound      = "group not found"
	MsgGroupDissolved     = "this group has been dissolved"
	MsgNotGroupMember     = "not a member of this group"
	MsgGroupNameEmpty     = "group name cannot be empty"
	MsgGroupNameTooLong   = "group name is at most 64 characters"
	MsgGroupNoticeTooLong = "group announcement is at most 2000 characters"
	MsgGroupMembersEmpty  = "group members cannot be empty"
	MsgInviteTooMany      = "only 100 friends per invite"
	MsgGroupRankTooLow    = "you can only do this to members below your role in the group"
	MsgGroupRoleInvalid   = "role must be Admin or Normal"
	MsgOwnerCannotLeave   = "the owner cannot leave the group: transfer it or dissolve it"
	MsgLeaveNotAllowed    = "members are not allowed to leave this group"
	MsgMuteUntilPast      = "a mute must end in the future"
	MsgNicknameTooLong    = "nickname is at most 32 characters"
	MsgSendRateInvalid    = "sendRate must be NoLimit, Backend, TenPerMinute or FivePerMinute"
	MsgMuted              = "You have been muted in this group, you can chat with the group owner to apply to open speech!"
	MsgSendTooFast        = "you are sending messages too fast in this group, try again in a moment"
	MsgGroupIDMissing     = "a group chat needs its groupId"
	MsgRemoteDeleteDenied = "only the group owner and admins can delete group messages for everyone"
	MsgPinnedTooMany      = "at most 10 messages can be pinned in a group: unpin another and retry"
	MsgMessageNotPinned   = "this message is not pinned"
	MsgGroupAvatarInvalid = "the group avatar must be a jpg or png picture you uploaded"
)

// Message keys of a message's readers.
const (
	MsgReadersMessageID = "messageId is required"
	MsgReadersIDTooLong = "groupId and messageId are ids of at most 64 characters"
	MsgReadersNotSender = "only the sender of a message sees who has read it"
)
