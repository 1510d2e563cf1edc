package tenant

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/fault"
)

// Setting keys of the chat assistant. The provider's API key is no
// setting: it never enters the log (commands keep it in a key store).
const (
	KeyAssistant        = "assistant"        // the switch
	KeyAssistantURL     = "assistantBaseURL" // an OpenAI-compatible chat-completions endpoint
	KeyAssistantModels  = "assistantModels"  // comma separated
	KeyAssistantTimeout = "assistantTimeout" // seconds an answer may take
	KeyAssistantKey     = "assistantKey"
)

// DefaultAssistantTimeout is the seconds an answer may take by default.
const DefaultAssistantTimeout = 60

// Limits of the assistant's settings.
const (
	maxAssistantModels  = 50
	maxAssistantTimeout = 600
)

// Message keys of the assistant's settings.
const (
	MsgSettingAssistantURL     = "assistantBaseURL must be an http(s) URL of at most 1024 characters"
	MsgSettingAssistantModels  = "assistantModels: 1 to 50 model names of letters, digits and . _ : / -, comma separated"
	MsgSettingAssistantTimeout = "assistantTimeout must be a number of seconds from 1 to 600"
)

var modelPattern = regexp.MustCompile(`^[A-Za-z0-9._:/-]{1,128}$`)

// Assistant is a tenant's chat-assistant configuration.
type Assistant struct {
	On      bool
	BaseURL string   // "" : not set up
	Models  []string // never empty
	Timeout int      // seconds
}

// Ready reports whether members may ask: the switch is on and an endpoint
// is configured.
func (a Assistant) Ready() bool { return a.On && a.BaseURL != "" }

func defaultAssistant() Assistant {
	return Assistant{On: true, Models: []string{assistant.DefaultModel}, Timeout: DefaultAssistantTimeout}
}

// AssistantChange is the part of SettingsChanged about the assistant.
type AssistantChange struct {
	On      *bool    `json:"on,omitempty"`
	BaseURL *string  `json:"baseUrl,omitempty"`
	Models  []string `json:"models,omitempty"`
	Timeout *int     `json:"timeout,omitempty"`
}

func (a *Assistant) apply(c *AssistantChange) {
	if c == nil {
		return
	}
	setBool(&a.On, c.On)
	setStr(&a.BaseURL, c.BaseURL)
	if c.Models != nil {
		a.Models = slices.Clone(c.Models)
	}
	if c.Timeout != nil {
		a.Timeout = *c.Timeout
	}
}

// assistantKey is the setting key of an assistant short name, "" for
// another.
func assistantKey(k string) string {
	switch strings.ToLower(k) {
	case "assistant", "chatgpt":
		return KeyAssistant
	case "assistantbaseurl", "assistanturl":
		return KeyAssistantURL
	case "assistantmodels":
		return KeyAssistantModels
	case "assistanttimeout":
		return KeyAssistantTimeout
	case "assistantkey":
		return KeyAssistantKey
	}
	return ""
}

// IsAssistantKey reports whether a setting as given names the provider's
// API key.
func IsAssistantKey(k string) bool { return assistantKey(k) == KeyAssistantKey }

// configureAssistant decides one assistant setting into e; it reports
// whether the value differs from cur.
func configureAssistant(e *SettingsChanged, cur Assistant, key, v string) (bool, error) {
	if e.Assistant == nil {
		e.Assistant = &AssistantChange{}
	}
	c := e.Assistant
	switch key {
	case KeyAssistant:
		b, err := parseSwitch(key, v)
		if err != nil {
			return false, err
		}
		if c.On != nil {
			return false, fault.New(fault.Invalid, MsgSettingDuplicate, key)
		}
		if b == cur.On {
			return false, nil
		}
		c.On = &b
	case KeyAssistantURL:
		if !validEndpoint(v) {
			return false, fault.New(fault.Invalid, MsgSettingAssistantURL)
		}
		if c.BaseURL != nil {
			return false, fault.New(fault.Invalid, MsgSettingDuplicate, key)
		}
		v = strings.TrimRight(v, "/")
		if v == cur.BaseURL {
			return false, nil
		}
		c.BaseURL = &v
	case KeyAssistantModels:
		var models []string
		for _, m := range strings.Split(v, ",") {
			if m = strings.TrimSpace(m); m != "" && !slices.Contains(models, m) {
				if !modelPattern.MatchString(m) {
					return false, fault.New(fault.Invalid, MsgSettingAssistantModels)
				}
				models = append(models, m)
			}
		}
		if len(models) == 0 || len(models) > maxAssistantModels {
			return false, fault.New(fault.Invalid, MsgSettingAssistantModels)
		}
		if c.Models != nil {
			return false, fault.New(fault.Invalid, MsgSettingDuplicate, key)
		}
		if slices.Equal(models, cur.Models) {
			return false, nil
		}
		c.Models = models
	case KeyAssistantTimeout:
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAssistantTimeout {
			return false, fault.New(fault.Invalid, MsgSettingAssistantTimeout)
		}
		if c.Timeout != nil {
			return false, fault.New(fault.Invalid, MsgSettingDuplicate, key)
		}
		if n == cur.Timeout {
			return false, nil
		}
		c.Timeout = &n
	}
	return true, nil
}

// validEndpoint accepts "" (not set up) or an http(s) URL with a host.
func validEndpoint(v string) bool {
	if v == "" {
		return true
	}
	if len(v) > maxURLLen || strings.ContainsAny(v, " \t\r\n") {
		return false
	}
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		u.RawQuery == "" && u.Fragment == ""
}
