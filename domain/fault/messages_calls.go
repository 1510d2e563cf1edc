package fault

// Message keys of voice and video calls.
const (
	MsgCallMediaInvalid   = "media must be voice or video"
	MsgCallIDRequired     = "callId is required"
	MsgCallNotFound       = "call not found"
	MsgCallEnded          = "this call has already ended"
	MsgCallAnswered       = "this call has already been answered"
	MsgCallNotAnswered    = "this call has not been answered yet"
	MsgCallNotCaller      = "only the caller can do this"
	MsgCallNotCallee      = "only the member called can do this"
	MsgInCall             = "you are already in a call"
	MsgCallsStarting      = "calls are not available yet, try again shortly"
	MsgCallsNotConfigured = "voice and video calls are not configured on this server"
)
