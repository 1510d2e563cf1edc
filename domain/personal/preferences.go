package personal

import (
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// TypePreferencesSet is a stored identifier, never renamed.
const TypePreferencesSet = "PreferencesSet"

// SettingPreferences is the id of the personal settings among a member's
// setting items.
const SettingPreferences = "preferences"

// Font sizes: small, medium, large.
const (
	FontSmall  = 0
	FontMedium = 1
	FontLarge  = 2
)

// Backgrounds are the chat backgrounds a member may choose.
var Backgrounds = []string{"default", "paper", "mint", "sky", "night"}

// Preferences are a member's own settings of the client, kept on the server
// so that they follow the member across devices.
type Preferences struct {
	Notifications      bool   `json:"notifications"`      // message notifications
	ShowMessageTime    bool   `json:"showMessageTime"`    // a time under every message
	ImagePreviewWindow bool   `json:"imagePreviewWindow"` // pictures open in a separate window
	ReadSync           bool   `json:"readSync"`           // reads on one device mark the others'
	FontSize           int    `json:"fontSize"`           // FontSmall, FontMedium or FontLarge
	Background         string `json:"background"`         // one of Backgrounds
}

// DefaultPreferences are a member's settings until it changes them.
func DefaultPreferences() Preferences {
	return Preferences{Notifications: true, ShowMessageTime: true, ReadSync: true, FontSize: FontMedium, Background: Backgrounds[0]}
}

// PreferencesChange changes some settings; nil fields stay as they are.
type PreferencesChange struct {
	Notifications      *bool   `json:"notifications,omitempty"`
	ShowMessageTime    *bool   `json:"showMessageTime,omitempty"`
	ImagePreviewWindow *bool   `json:"imagePreviewWindow,omitempty"`
	ReadSync           *bool   `json:"readSync,omitempty"`
	FontSize           *int    `json:"fontSize,omitempty"`
	Background         *string `json:"background,omitempty"`
}

// PreferencesSet records a member's whole settings after a change; in the
// member's inbox stream.
type PreferencesSet struct {
	Member      string      `json:"member"`
	Preferences Preferences `json:"preferences"`
	At          int64       `json:"at"`
}

func (*PreferencesSet) EventType() string { return TypePreferencesSet }

// PreferenceEvents lists the constructors of the settings' events.
func PreferenceEvents() []func() es.Event {
	return []func() es.Event{func() es.Event { return &PreferencesSet{} }}
}

// SetPreferences decides a change of current; an empty change or one that
// changes nothing decides nothing.
func SetPreferences(member string, current Preferences, c PreferencesChange, now time.Time) ([]es.Event, Preferences, error) {
	next := current
	if c.Notifications != nil {
		next.Notifications = *c.Notifications
	}
	if c.ShowMessageTime != nil {
		next.ShowMessageTime = *c.ShowMessageTime
	}
	if c.ImagePreviewWindow != nil {
		next.ImagePreviewWindow = *c.ImagePreviewWindow
	}
	if c.ReadSync != nil {
		next.ReadSync = *c.ReadSync
	}
	if c.FontSize != nil {
		if *c.FontSize < FontSmall || *c.FontSize > FontLarge {
			return nil, current, fault.New(fault.Invalid, fault.MsgSettingInvalid)
		}
		next.FontSize = *c.FontSize
	}
	if c.Background != nil {
		known := false
		for _, b := range Backgrounds {
			known = known || b == *c.Background
		}
		if !known {
			return nil, current, fault.New(fault.Invalid, fault.MsgSettingInvalid)
		}
		next.Background = *c.Background
	}
	if next == current {
		return nil, current, nil
	}
	return []es.Event{&PreferencesSet{Member: member, Preferences: next, At: now.UnixMilli()}}, next, nil
}
