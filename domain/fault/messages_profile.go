package fault

// Message keys of the profile, credentials, feedback and rate limits. A key
// with a verb takes its arguments (fault.New(kind, key, args...)).
const (
	MsgNameEmpty             = "name cannot be empty"
	MsgNameTooLong           = "name too long, at most 32 characters"
	MsgGenderInvalid         = "gender must be male, female or prefer not to say"
	MsgAvatarInvalid         = "the avatar must be a jpg or png picture uploaded first"
	MsgOldPasswordEmpty      = "please enter the old password"
	MsgNewPasswordEmpty      = "please enter the new password"
	MsgNewPasswordRule       = "password must be 8-16 letters and digits"
	MsgPasswordsDiffer       = "the two passwords do not match"
	MsgOldPasswordWrong      = "wrong old password, %d attempts left"
	MsgPasswordLocked        = "too many wrong passwords, try again in %d minutes"
	MsgAccountIDRule         = "account ID must be 8-16 letters or digits"
	MsgAccountChangedOnce    = "the account ID can be changed only once"
	MsgFeedbackTypeEmpty     = "please choose a feedback type"
	MsgFeedbackTypeInvalid   = "feedback type too long"
	MsgFeedbackContentEmpty  = "please describe the problem"
	MsgFeedbackTooLong       = "feedback too long, at most 1000 characters"
	MsgFeedbackTooManyImages = "at most 5 pictures"
	MsgFeedbackImageInvalid  = "only jpeg, jpg, png and gif pictures under 5 MB, uploaded first"
	MsgFeedbackNotFound      = "feedback not found"
	MsgFeedbackReplyEmpty    = "the reply cannot be empty"
	MsgFeedbackReplyTooLong  = "reply too long, at most 1000 characters"
	MsgInvitationCodeInvalid = "the invitation code is not valid"
	MsgSettingInvalid        = "invalid setting"
	MsgTooManyAttempts       = "too many attempts, please try again later"
	MsgSMSTooManyToday       = "too many verification codes, please try again later"
	MsgRepeatedSubmit        = "please do not submit repeatedly"
)
