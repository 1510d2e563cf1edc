// Package smsoutbox is the default SMS provider: each message is appended as
// one JSON line to a file, for development and tests.
package smsoutbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Outbox appends SMS codes to a file.
type Outbox struct {
	mu   sync.Mutex
	path string
	log  *zap.Logger
	now  func() time.Time
}

// New returns an outbox writing to path.
func New(path string, log *zap.Logger) *Outbox {
	return &Outbox{path: path, log: log, now: time.Now}
}

type line struct {
	Phone string `json:"phone"`
	Code  string `json:"code"`
	Type  string `json:"type"`
	Time  int64  `json:"time"`
}

// Send appends the code as a line; the log shows that it was sent, never
// the code.
func (o *Outbox) Send(_ context.Context, phone, code, purpose string) error {
	b, err := json.Marshal(line{Phone: phone, Code: code, Type: purpose, Time: o.now().UnixMilli()})
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	f, err := os.OpenFile(o.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("sms outbox: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sms outbox: %w", err)
	}
	o.log.Info("sms sent", zap.String("type", purpose), zap.String("phoneTail", tail(phone)))
	return nil
}

func tail(phone string) string {
	if len(phone) <= 4 {
		return phone
	}
	return "*" + phone[len(phone)-4:]
}

// FileName is the outbox's file in the server's data directory.
const FileName = "sms-outbox.ndjson"

// LastCode returns the newest code the outbox at path holds for phone, for
// tests and load generators standing in for a member's phone.
func LastCode(path, phone string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("sms outbox: %w", err)
	}
	code := ""
	for _, raw := range bytes.Split(b, []byte("\n")) {
		var l line
		if json.Unmarshal(raw, &l) == nil && l.Phone == phone {
			code = l.Code
		}
	}
	if code == "" {
		return "", fmt.Errorf("sms outbox: no code for %s", phone)
	}
	return code, nil
}
