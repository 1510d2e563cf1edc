package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/eventchat/eventchat/adapters/smsoutbox"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Sync() error { return nil }

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var _ = Describe("The server's log", func() {
	It("has a request id per request and no message content, token, password or SMS code", func() {
		out := &syncBuffer{}
		log := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), out, zap.DebugLevel))
		s := startLogged(GinkgoT().TempDir(), log)
		alice, bob := s.register("alice001"), s.register("bob00001")
		s.befriend(alice, bob)
		s.send(alice, bob, "secret-uuid", "the secret content 42")
		r, err := s.dial(alice).Request(ctxWithin(5*time.Second), 11, map[string]string{"uuid": "ws", "chatType": "Friend", "to": bob.ID, "content": "socket secret 43"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK()).To(BeTrue())
		outbox, err := os.ReadFile(filepath.Join(s.dataDir, smsoutbox.FileName))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.stop()).To(Succeed())

		logged := out.String()
		Expect(logged).To(ContainSubstring(`"requestId"`))
		Expect(logged).To(ContainSubstring(`"route":"/v1/message/send"`))
		for _, secret := range []string{"the secret content 42", "socket secret 43", alice.Token, bob.Token, "pass1234"} {
			Expect(logged).NotTo(ContainSubstring(secret))
		}
		for _, line := range strings.Split(strings.TrimSpace(string(outbox)), "\n") {
			var sms struct{ Code string }
			Expect(json.Unmarshal([]byte(line), &sms)).To(Succeed())
			Expect(logged).NotTo(ContainSubstring(`"` + sms.Code + `"`))
		}
	})
})
