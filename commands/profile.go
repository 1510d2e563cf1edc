package commands

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
)

// ModifyProfile is the body of PUT /v1/member/memberInfo/modify; absent
// fields stay as they are, an empty headUrl removes the avatar.
type ModifyProfile struct {
	Name    *string `json:"name,omitempty"`
	HeadURL *string `json:"headUrl,omitempty"`
	Gender  *string `json:"gender,omitempty"`
}

// ModifyPassword is the body of PUT /v1/member/memberInfo/modifyPassword.
type ModifyPassword struct {
	OldPassword     string `json:"oldPassword"`
	NewPassword     string `json:"newPassword"`
	ConfirmPassword string `json:"confirmPassword"`
}

// ModifyUsername is the body of PUT /v1/member/memberInfo/modifyUsername.
type ModifyUsername struct {
	Username string `json:"username"`
}

// ModifyMobile is the body of PUT /v1/member/memberInfo/modifyMobile: the
// new phone and a code sent to it with type=register.
type ModifyMobile struct {
	Phone   string `json:"phone"`
	SMSCode string `json:"smsCode"`
}

// ForgetPassword is the body of PUT /v1/member/memberInfo/forgetPassword: a
// reset by a code sent with type=reset.
type ForgetPassword struct {
	Phone           string `json:"phone"`
	SMSCode         string `json:"smsCode"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
	TenantCode      string `json:"tenantCode"`
}

// BuildFeedback is the body of POST /v1/member/feedback/build; images are
// the filePaths of pictures uploaded with type=feedback.
type BuildFeedback struct {
	Type    string   `json:"type"`
	Content string   `json:"content"`
	Images  []string `json:"images"`
}

// ProfileWritten answers a change of the profile or credentials.
type ProfileWritten struct {
	Position uint64 `json:"position"`
}

// FeedbackBuilt answers a feedback.
type FeedbackBuilt struct {
	ID       string `json:"id"`
	Position uint64 `json:"position"`
}

// PreferencesWritten answers a change of the settings with all of them.
type PreferencesWritten struct {
	personal.Preferences
	Position uint64 `json:"position"`
}

// changeMember loads p's member, lets decide choose the events, and appends
// them with the exact revision loaded, deciding again after a lost race.
// decide's error is returned after its events (a wrong password is
// recorded) are appended.
func (a *App) changeMember(ctx context.Context, p Principal, decide func(m *member.Member) ([]es.Event, error)) (uint64, error) {
	stream := es.Stream(p.Tenant, es.CategoryMember, p.MemberID)
	var decided error
	pos, err := retryOnConflict(ctx, func() (uint64, error) {
		var m member.Member
		st, err := a.loadAll(ctx, stream, m.Apply)
		if err != nil {
			return 0, err
		}
		var events []es.Event
		events, decided = decide(&m)
		if len(events) == 0 {
			return st.position, nil
		}
		res, err := a.appendEvents(ctx, p, stream, st.expected(), events)
		return res.Position, err
	})
	if err != nil {
		return 0, err
	}
	return pos, decided
}

// ModifyProfile changes p's name, avatar or gender.
func (a *App) ModifyProfile(ctx context.Context, p Principal, r ModifyProfile) (ProfileWritten, error) {
	if r.HeadURL != nil && *r.HeadURL != "" {
		if err := a.checkPicture(ctx, p, *r.HeadURL, fault.MsgAvatarInvalid, "jpg", "png"); err != nil {
			return ProfileWritten{}, err
		}
	}
	pos, err := a.changeMember(ctx, p, func(m *member.Member) ([]es.Event, error) {
		return m.ModifyProfile(member.ProfileChange{Name: r.Name, HeadURL: r.HeadURL, Gender: r.Gender}, a.Now())
	})
	return ProfileWritten{Position: pos}, err
}

// checkPicture fails with key unless filePath names a picture p uploaded to
// its tenant, of one of exts, under the picture cap.
func (a *App) checkPicture(ctx context.Context, p Principal, filePath, key string, exts ...string) error {
	t, name, ok := chat.ParseUploadPath(filePath)
	if !ok || t != p.Tenant || !chat.UploadedBy(name, p.MemberID) {
		return fault.New(fault.Invalid, key)
	}
	if !slices.Contains(exts, strings.TrimPrefix(path.Ext(name), ".")) {
		return fault.New(fault.Invalid, key)
	}
	if a.Uploads == nil {
		return nil
	}
	size, found, err := a.Uploads.Size(ctx, p.Tenant, name)
	switch {
	case err != nil:
		return err
	case !found || size > chat.MaxPictureBytes:
		return fault.New(fault.Invalid, key)
	}
	return nil
}

// ModifyPassword changes p's password after checking the old one and ends
// p's other sessions. A wrong old password is recorded and answered with
// the attempts left; the last one locks password changes
// (member.PasswordLockDuration).
func (a *App) ModifyPassword(ctx context.Context, p Principal, r ModifyPassword) (ProfileWritten, error) {
	if r.OldPassword == "" {
		return ProfileWritten{}, fault.New(fault.Invalid, fault.MsgOldPasswordEmpty)
	}
	if len(r.OldPassword) > 128 {
		r.OldPassword = r.OldPassword[:128] // never matches: passwords are at most 64
	}
	if err := member.ValidateNewPassword(r.NewPassword, r.ConfirmPassword); err != nil {
		return ProfileWritten{}, err
	}
	hash, err := a.Hasher.Hash(r.NewPassword)
	if err != nil {
		return ProfileWritten{}, err
	}
	pos, err := a.changeMember(ctx, p, func(m *member.Member) ([]es.Event, error) {
		if until := m.PasswordLockedUntil(a.Now()); !until.IsZero() {
			return m.ChangePassword(false, "", p.SessionID, a.Now())
		}
		return m.ChangePassword(a.Hasher.Matches(m.PasswordHash(), r.OldPassword), hash, p.SessionID, a.Now())
	})
	return ProfileWritten{Position: pos}, err
}

// ModifyUsername changes p's account ID, once: the new name is claimed in
// its claim stream first, then the change is recorded, then the old name
// is released.
func (a *App) ModifyUsername(ctx context.Context, p Principal, r ModifyUsername) (ProfileWritten, error) {
	var m member.Member
	if _, err := a.loadAll(ctx, es.Stream(p.Tenant, es.CategoryMember, p.MemberID), m.Apply); err != nil {
		return ProfileWritten{}, err
	}
	if err := m.CheckAccountChange(r.Username); err != nil {
		return ProfileWritten{}, err
	}
	pos, err := a.switchClaim(ctx, p, accountClaim(p.Tenant, r.Username), accountClaim(p.Tenant, m.Account()),
		&member.AccountReserved{MemberID: p.MemberID}, &member.AccountReleased{MemberID: p.MemberID},
		fault.MsgAccountInUse, func(m *member.Member) ([]es.Event, error) { return m.ChangeAccount(r.Username, a.Now()) })
	return ProfileWritten{Position: pos}, err
}

// switchClaim moves p's claim from old to claimed around the member's
// change: when the change fails, the new claim is released again.
func (a *App) switchClaim(ctx context.Context, p Principal, claimed, old claimKey, reserve, release es.Event, inUse string,
	decide func(m *member.Member) ([]es.Event, error)) (uint64, error) {
	ok, err := a.reserve(ctx, p, claimed, reserve)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fault.New(fault.Conflict, inUse)
	}
	pos, err := a.changeMember(ctx, p, decide)
	if err != nil {
		if rerr := a.release(ctx, p, claimed, release); rerr != nil {
			return 0, rerr
		}
		return 0, err
	}
	if err := a.release(ctx, p, old, release); err != nil {
		return 0, err
	}
	return pos, nil
}

// ModifyMobile moves p to a new phone, spending the code sent to it.
func (a *App) ModifyMobile(ctx context.Context, p Principal, r ModifyMobile) (ProfileWritten, error) {
	phone := member.NormalizePhone(r.Phone)
	var m member.Member
	if _, err := a.loadAll(ctx, es.Stream(p.Tenant, es.CategoryMember, p.MemberID), m.Apply); err != nil {
		return ProfileWritten{}, err
	}
	if err := m.CheckPhoneChange(phone); err != nil {
		return ProfileWritten{}, err
	}
	if strings.TrimSpace(r.SMSCode) == "" {
		return ProfileWritten{}, fault.New(fault.Invalid, fault.MsgSMSCodeRequired)
	}
	if holder, err := a.holder(ctx, phoneClaim(p.Tenant, phone)); err != nil || holder != "" {
		if err != nil {
			return ProfileWritten{}, err
		}
		return ProfileWritten{}, fault.New(fault.Conflict, fault.MsgPhoneInUse)
	}
	if err := a.useSMSCode(ctx, p.Tenant, phone, member.PurposeRegister, r.SMSCode); err != nil {
		return ProfileWritten{}, err
	}
	pos, err := a.switchClaim(ctx, p, phoneClaim(p.Tenant, phone), phoneClaim(p.Tenant, m.Phone()),
		&member.PhoneReserved{MemberID: p.MemberID}, &member.PhoneReleased{MemberID: p.MemberID},
		fault.MsgPhoneInUse, func(m *member.Member) ([]es.Event, error) { return m.ChangePhone(phone, a.Now()) })
	return ProfileWritten{Position: pos}, err
}

// IsMobileRegistered tells whether a member of tenant holds phone.
func (a *App) IsMobileRegistered(ctx context.Context, tenantCode, phone string) (bool, error) {
	phone = member.NormalizePhone(phone)
	if err := member.ValidatePhone(phone); err != nil {
		return false, err
	}
	if err := tenant.ValidateCode(tenantCode); err != nil {
		return false, err
	}
	if err := a.ensureTenant(ctx, tenantCode); err != nil {
		return false, err
	}
	id, err := a.holder(ctx, phoneClaim(tenantCode, phone))
	return id != "", err
}

// ForgetPassword resets the password of the member holding a phone, by a
// code sent to it, and ends all its sessions; it lifts a password change
// lock too.
func (a *App) ForgetPassword(ctx context.Context, r ForgetPassword) (ProfileWritten, error) {
	phone := member.NormalizePhone(r.Phone)
	if err := member.ValidatePhone(phone); err != nil {
		return ProfileWritten{}, err
	}
	if strings.TrimSpace(r.SMSCode) == "" {
		return ProfileWritten{}, fault.New(fault.Invalid, fault.MsgSMSCodeRequired)
	}
	if err := member.ValidateNewPassword(r.Password, r.ConfirmPassword); err != nil {
		return ProfileWritten{}, err
	}
	if err := tenant.ValidateCode(r.TenantCode); err != nil {
		return ProfileWritten{}, err
	}
	if err := a.ensureTenant(ctx, r.TenantCode); err != nil {
		return ProfileWritten{}, err
	}
	id, err := a.holder(ctx, phoneClaim(r.TenantCode, phone))
	if err != nil {
		return ProfileWritten{}, err
	}
	if id == "" {
		return ProfileWritten{}, fault.New(fault.NotFound, fault.MsgMemberNotFound)
	}
	if err := a.useSMSCode(ctx, r.TenantCode, phone, member.PurposeReset, r.SMSCode); err != nil {
		return ProfileWritten{}, err
	}
	hash, err := a.Hasher.Hash(r.Password)
	if err != nil {
		return ProfileWritten{}, err
	}
	pos, err := a.changeMember(ctx, Principal{Tenant: r.TenantCode, MemberID: id}, func(m *member.Member) ([]es.Event, error) {
		return m.ResetPassword(hash, a.Now())
	})
	return ProfileWritten{Position: pos}, err
}

// BuildFeedback records p's feedback with up to five screenshots.
func (a *App) BuildFeedback(ctx context.Context, p Principal, r BuildFeedback) (FeedbackBuilt, error) {
	f := member.Feedback{Type: r.Type, Content: r.Content, Images: r.Images}
	if err := f.Validate(); err != nil {
		return FeedbackBuilt{}, err
	}
	for _, img := range r.Images {
		if err := a.checkPicture(ctx, p, img, fault.MsgFeedbackImageInvalid, "jpg", "png", "gif"); err != nil {
			return FeedbackBuilt{}, err
		}
	}
	id, err := a.NewID()
	if err != nil {
		return FeedbackBuilt{}, err
	}
	pos, err := a.changeMember(ctx, p, func(m *member.Member) ([]es.Event, error) { return m.SubmitFeedback(id, f, a.Now()) })
	return FeedbackBuilt{ID: id, Position: pos}, err
}

// Preferences returns p's settings, the defaults for those never changed.
func (a *App) Preferences(ctx context.Context, p Principal) (personal.Preferences, error) {
	docs, err := a.Personal.PersonalDocs(ctx, p.Tenant, p.MemberID, personal.KindSetting, []string{personal.SettingPreferences})
	if err != nil || len(docs) == 0 {
		return personal.DefaultPreferences(), err
	}
	prefs := personal.DefaultPreferences()
	err = json.Unmarshal(docs[0], &prefs)
	return prefs, err
}

// SetPreferences changes some of p's settings. It decides on the last ones
// p's inbox stream holds, not on the read model, and appends with the
// stream's revision, so that devices changing different settings at once all
// keep their change.
func (a *App) SetPreferences(ctx context.Context, p Principal, r personal.PreferencesChange) (PreferencesWritten, error) {
	stream := es.Stream(p.Tenant, es.CategoryInbox, p.MemberID)
	return retryOnConflict(ctx, func() (PreferencesWritten, error) {
		current, st, err := a.storedPreferences(ctx, stream)
		if err != nil {
			return PreferencesWritten{}, err
		}
		events, next, err := personal.SetPreferences(p.MemberID, current, r, a.Now())
		if err != nil || len(events) == 0 {
			return PreferencesWritten{Preferences: next}, err
		}
		res, err := a.appendEvents(ctx, p, stream, st.expected(), events)
		if err != nil {
			return PreferencesWritten{}, err
		}
		return PreferencesWritten{Preferences: next, Position: res.Position}, nil
	})
}

// storedPreferences reads the last settings an inbox stream holds, the
// defaults when none, reading from its end; it returns the stream's state.
func (a *App) storedPreferences(ctx context.Context, stream string) (personal.Preferences, streamState, error) {
	var st streamState
	for from := es.End; ; {
		recs, err := a.Store.ReadStream(ctx, stream, es.Backwards, from, readPage)
		if err != nil {
			return personal.Preferences{}, st, err
		}
		if len(recs) > 0 && !st.exists {
			st = streamState{revision: recs[0].Revision, exists: true, position: recs[0].Position}
		}
		for _, r := range recs {
			if r.Type != personal.TypePreferencesSet {
				continue
			}
			e, err := a.registry.Decode(r.Type, r.Data)
			if err != nil {
				return personal.Preferences{}, st, err
			}
			if set, ok := e.(*personal.PreferencesSet); ok {
				return set.Preferences, st, nil
			}
		}
		if len(recs) < readPage || recs[len(recs)-1].Revision == 0 {
			return personal.DefaultPreferences(), st, nil
		}
		from = recs[len(recs)-1].Revision - 1
	}
}
