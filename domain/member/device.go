package member

import (
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// TypeDeviceVerificationIssued names the verification of a login from a
// new device: a stored identifier, never renamed.
const TypeDeviceVerificationIssued = "MemberDeviceVerificationIssued"

// DeviceCodeValidity is how long a new-device verification code stays
// usable.
const DeviceCodeValidity = 10 * time.Minute

// DeviceVerificationIssued tells the member that its account was logged in
// from a device it never used before, with a one-time code. The code is
// kept clear: the member's notices show it.
type DeviceVerificationIssued struct {
	SessionID    string `json:"sessionId"`
	Device       string `json:"device"`
	System       string `json:"system"` // the new device's operating system
	Code         string `json:"code"`
	ValidMinutes int    `json:"validMinutes"`
	ExpiresAt    int64  `json:"expiresAt"`
	At           int64  `json:"at"`
}

func (*DeviceVerificationIssued) EventType() string { return TypeDeviceVerificationIssued }

// DeviceSystem names the operating system a client's User-Agent tells of,
// "Unknown" when it tells of none.
func DeviceSystem(userAgent string) string {
	ua := strings.ToLower(userAgent)
	for _, s := range []struct{ marker, name string }{
		{"windows", "Windows"},
		{"iphone", "iOS"},
		{"ipad", "iOS"},
		{"android", "Android"},
		{"mac os", "macOS"},
		{"macintosh", "macOS"},
		{"cros", "ChromeOS"},
		{"linux", "Linux"},
	} {
		if strings.Contains(ua, s.marker) {
			return s.name
		}
	}
	return "Unknown"
}

// NewDevice reports whether a login from device is one from a device the
// member never logged in from, after a first login ever.
func (m *Member) NewDevice(device string) bool {
	return len(m.devices) > 0 && !m.devices[device]
}

// VerifyDevice decides the verification of session's login from device when
// the device is new to the member; code is the caller's fresh one-time code.
func (m *Member) VerifyDevice(sessionID, device, code string, now time.Time) []es.Event {
	if !m.Exists() || !m.NewDevice(device) {
		return nil
	}
	return []es.Event{&DeviceVerificationIssued{
		SessionID: sessionID, Device: device, System: DeviceSystem(device), Code: code,
		ValidMinutes: int(DeviceCodeValidity / time.Minute), ExpiresAt: now.Add(DeviceCodeValidity).UnixMilli(), At: now.UnixMilli(),
	}}
}
