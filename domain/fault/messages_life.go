package fault

// Message keys of the message life: edit, recall, delete, forward, reply,
// contact cards and clearing history.
const (
	MsgNotYourMessage     = "only the sender can do this to a message"
	MsgNotEditable        = "this message cannot be edited"
	MsgRecallExpired      = "a message can be recalled only within 24 hours of sending"
	MsgMessageRecalled    = "this message has been recalled"
	MsgTooManyMessages    = "at most 100 messages at once"
	MsgNoMessages         = "select the messages first"
	MsgForwardTooMany     = "A maximum of 10 records can be forwarded at once!"
	MsgForwardNone        = "Please select the records to forward"
	MsgForwardUnsupported = "This message cannot be forwarded yet"
	MsgForwardNoTarget    = "Please select who to forward to"
	MsgTooManyTargets     = "at most 100 recipients at once"
	MsgParentMissing      = "the message replied to is not in this conversation"
	MsgDeleteTypeInvalid  = "deleteMessageType must be Bilateral or Unilateral"
)
