package tenant

import (
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// TypeSettingsChanged is the stored type name of SettingsChanged.
const TypeSettingsChanged = "TenantSettingsChanged"

// Setting keys, as operators and the admin API name them.
const (
	KeySystemIcon       = "systemIcon"
	KeySystemLogo       = "systemLogo"
	KeyHasVoiceCall     = "hasVoiceCall"
	KeyShowGroupMember  = "showGroupMember"
	KeySendBatchMessage = "sendBatchMessage"
	KeySingleDevice     = "singleDevice"
	KeyIllegalWords     = "illegalWords"
	KeyTopUp            = "topUp"
	// KeySensitiveWords is followed by "." and a member level code:
	// sensitiveWords.Normal=word1,word2.
	KeySensitiveWords = "sensitiveWords"
)

// Member level codes whose sensitive words a tenant keeps (the spec's
// levels; domain/member names them too).
var levels = []string{"Normal", "Admin", "System"}

// Limits of the settings.
const (
	maxURLLen   = 1024
	maxWords    = 500
	maxWordLen  = 64
	maxSettings = 32
)

// Message keys of tenant settings.
const (
	MsgSettingUnknown   = "unknown setting %s"
	MsgSettingBool      = "%s must be true or false"
	MsgSettingEnable    = "%s must be Enable or Disable"
	MsgSettingURL       = "%s must be a URL or path of at most 1024 characters"
	MsgSettingLevel     = "unknown member level %s: want Normal, Admin or System"
	MsgSettingWords     = "sensitive words: at most 500 words of at most 64 characters, comma separated"
	MsgSettingsEmpty    = "give at least one setting as key=value"
	MsgSettingsTooMany  = "at most 32 settings at once"
	MsgSettingDuplicate = "setting %s given twice"
)

// Config is a tenant's configuration as its events leave it.
type Config struct {
	Code            string
	Name            string
	SystemIcon      string
	SystemLogo      string
	HasVoiceCall    bool
	ShowGroupMember bool
	// SendBatchMessage lets the tenant's members use the mass-send assistant.
	SendBatchMessage bool
	// SingleDevice ends a member's older sessions when it logs in again.
	SingleDevice bool
	// IllegalWords on turns the sensitive-word filter off (the spec's flag,
	// on by default).
	IllegalWords   bool
	SensitiveWords map[string][]string // member level code -> words
	// TopUp lets the tenant's members top their balance up; off by default.
	TopUp     bool
	Assistant Assistant
}

// Defaults is the configuration of a tenant no setting has changed.
func Defaults(code string) Config {
	return Config{Code: code, Name: code, HasVoiceCall: true, ShowGroupMember: true, SendBatchMessage: true,
		IllegalWords: true, SensitiveWords: map[string][]string{}, Assistant: defaultAssistant()}
}

// Tenant is a tenant's state, folded from its stream.
type Tenant struct {
	exists bool
	config Config
}

// Exists reports whether the tenant was created.
func (t *Tenant) Exists() bool { return t.exists }

// Config returns the tenant's configuration.
func (t *Tenant) Config() Config {
	c := t.config
	c.SensitiveWords = make(map[string][]string, len(t.config.SensitiveWords))
	for k, v := range t.config.SensitiveWords {
		c.SensitiveWords[k] = slices.Clone(v)
	}
	c.Assistant.Models = slices.Clone(t.config.Assistant.Models)
	return c
}

// Apply folds one event into the state. It never validates.
func (t *Tenant) Apply(e es.Event) {
	switch e := e.(type) {
	case *Created:
		t.exists = true
		t.config = Defaults(e.Code)
		t.config.Name = e.Name
	case *SettingsChanged:
		c := &t.config
		setStr(&c.SystemIcon, e.SystemIcon)
		setStr(&c.SystemLogo, e.SystemLogo)
		setBool(&c.HasVoiceCall, e.HasVoiceCall)
		setBool(&c.ShowGroupMember, e.ShowGroupMember)
		setBool(&c.SendBatchMessage, e.SendBatchMessage)
		setBool(&c.SingleDevice, e.SingleDevice)
		setBool(&c.IllegalWords, e.IllegalWords)
		setBool(&c.TopUp, e.TopUp)
		c.Assistant.apply(e.Assistant)
		for level, words := range e.SensitiveWords {
			if c.SensitiveWords == nil {
				c.SensitiveWords = map[string][]string{}
			}
			if len(words) == 0 {
				delete(c.SensitiveWords, level)
			} else {
				c.SensitiveWords[level] = slices.Clone(words)
			}
		}
	}
}

func setStr(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// SettingsChanged records the settings an operator changed; a field left
// out is unchanged. A level's sensitive words are replaced whole; an empty
// list clears them.
type SettingsChanged struct {
	SystemIcon       *string             `json:"systemIcon,omitempty"`
	SystemLogo       *string             `json:"systemLogo,omitempty"`
	HasVoiceCall     *bool               `json:"hasVoiceCall,omitempty"`
	ShowGroupMember  *bool               `json:"showGroupMember,omitempty"`
	SendBatchMessage *bool               `json:"sendBatchMessage,omitempty"`
	SingleDevice     *bool               `json:"singleDevice,omitempty"`
	IllegalWords     *bool               `json:"illegalWords,omitempty"`
	SensitiveWords   map[string][]string `json:"sensitiveWords,omitempty"`
	TopUp            *bool               `json:"topUp,omitempty"`
	Assistant        *AssistantChange    `json:"assistant,omitempty"`
	At               int64               `json:"at"`
}

func (*SettingsChanged) EventType() string { return TypeSettingsChanged }

// Configure decides a change of settings given as key=value pairs (keys
// and values as imctl and the admin API take them). Values equal to the
// current ones decide nothing; a bad pair refuses the whole change.
func (t *Tenant) Configure(settings map[string]string, now time.Time) ([]es.Event, error) {
	if !t.exists {
		return nil, fault.New(fault.NotFound, fault.MsgTenantInvalid)
	}
	if len(settings) == 0 {
		return nil, fault.New(fault.Invalid, MsgSettingsEmpty)
	}
	if len(settings) > maxSettings {
		return nil, fault.New(fault.Invalid, MsgSettingsTooMany)
	}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	cur := t.config
	e := &SettingsChanged{At: now.UnixMilli()}
	changed := false
	for _, raw := range keys {
		v := strings.TrimSpace(settings[raw])
		key, level, _ := strings.Cut(canonicalKey(raw), ".")
		switch key {
		case KeySystemIcon, KeySystemLogo:
			if !validURL(v) {
				return nil, fault.New(fault.Invalid, MsgSettingURL, key)
			}
			dst, now := &e.SystemIcon, cur.SystemIcon
			if key == KeySystemLogo {
				dst, now = &e.SystemLogo, cur.SystemLogo
			}
			if *dst != nil {
				return nil, fault.New(fault.Invalid, MsgSettingDuplicate, key)
			}
			if v != now {
				*dst, changed = &v, true
			}
		case KeyHasVoiceCall, KeyShowGroupMember, KeySendBatchMessage, KeySingleDevice, KeyIllegalWords, KeyTopUp:
			b, err := parseSwitch(key, v)
			if err != nil {
				return nil, err
			}
			dst, now := boolField(e, &cur, key)
			if *dst != nil {
				return nil, fault.New(fault.Invalid, MsgSettingDuplicate, key)
			}
			if b != now {
				*dst, changed = &b, true
			}
		case KeySensitiveWords:
			if !slices.Contains(levels, level) {
				return nil, fault.New(fault.Invalid, MsgSettingLevel, level)
			}
			words, err := ParseWords(v)
			if err != nil {
				return nil, err
			}
			if _, dup := e.SensitiveWords[level]; dup {
				return nil, fault.New(fault.Invalid, MsgSettingDuplicate, KeySensitiveWords+"."+level)
			}
			if !slices.Equal(words, cur.SensitiveWords[level]) {
				if e.SensitiveWords == nil {
					e.SensitiveWords = map[string][]string{}
				}
				if words == nil {
					words = []string{}
				}
				e.SensitiveWords[level], changed = words, true
			}
		case KeyAssistant, KeyAssistantURL, KeyAssistantModels, KeyAssistantTimeout:
			diff, err := configureAssistant(e, cur.Assistant, key, v)
			if err != nil {
				return nil, err
			}
			changed = changed || diff
		default:
			return nil, fault.New(fault.Invalid, MsgSettingUnknown, raw)
		}
	}
	if !changed {
		return nil, nil
	}
	return []es.Event{e}, nil
}

// canonicalKey maps the short names imctl accepts to the setting keys.
func canonicalKey(k string) string {
	key, level, dotted := strings.Cut(k, ".")
	switch strings.ToLower(key) {
	case "icon", "systemicon":
		key = KeySystemIcon
	case "logo", "systemlogo":
		key = KeySystemLogo
	case "hasvoicecall", "voicecall":
		key = KeyHasVoiceCall
	case "showgroupmember":
		key = KeyShowGroupMember
	case "sendbatchmessage", "batchsend":
		key = KeySendBatchMessage
	case "singledevice":
		key = KeySingleDevice
	case "illegalwords":
		key = KeyIllegalWords
	case "topup":
		key = KeyTopUp
	case "sensitivewords", "words":
		key = KeySensitiveWords
	default:
		if a := assistantKey(k); a != "" {
			return a
		}
		return k
	}
	if dotted {
		return key + "." + level
	}
	return key
}

func boolField(e *SettingsChanged, c *Config, key string) (**bool, bool) {
	switch key {
	case KeyHasVoiceCall:
		return &e.HasVoiceCall, c.HasVoiceCall
	case KeyShowGroupMember:
		return &e.ShowGroupMember, c.ShowGroupMember
	case KeySendBatchMessage:
		return &e.SendBatchMessage, c.SendBatchMessage
	case KeySingleDevice:
		return &e.SingleDevice, c.SingleDevice
	case KeyTopUp:
		return &e.TopUp, c.TopUp
	}
	return &e.IllegalWords, c.IllegalWords
}

// parseSwitch reads a flag: true/false, Y/N, on/off, and Enable/Disable
// for sendBatchMessage.
func parseSwitch(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "y", "yes", "on", "1", "enable":
		return true, nil
	case "false", "n", "no", "off", "0", "disable":
		return false, nil
	}
	if key == KeySendBatchMessage {
		return false, fault.New(fault.Invalid, MsgSettingEnable, key)
	}
	return false, fault.New(fault.Invalid, MsgSettingBool, key)
}

// validURL accepts an empty value (no picture), an http(s) URL or a path
// of the server, without spaces or control characters.
func validURL(v string) bool {
	if v == "" {
		return true
	}
	if len(v) > maxURLLen || !utf8.ValidString(v) {
		return false
	}
	for _, r := range v {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "/")
}

// ParseWords splits a comma-separated word list: blanks dropped, each
// word trimmed, duplicates removed, in the order given.
func ParseWords(v string) ([]string, error) {
	var out []string
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '，' }) {
		w = strings.TrimSpace(w)
		if w == "" || slices.Contains(out, w) {
			continue
		}
		if utf8.RuneCountInString(w) > maxWordLen || !utf8.ValidString(w) {
			return nil, fault.New(fault.Invalid, MsgSettingWords)
		}
		out = append(out, w)
	}
	if len(out) > maxWords {
		return nil, fault.New(fault.Invalid, MsgSettingWords)
	}
	return out, nil
}

// ContainsSensitive reports whether content holds one of the words of
// level, as the send path checks it: case-insensitive substrings. The
// filter is off for the Admin level and while the illegal-words flag is on.
func (c Config) ContainsSensitive(level, content string) bool {
	if c.IllegalWords || level == "Admin" {
		return false
	}
	lc := strings.ToLower(content)
	for _, w := range c.SensitiveWords[level] {
		if strings.Contains(lc, strings.ToLower(w)) {
			return true
		}
	}
	return false
}
