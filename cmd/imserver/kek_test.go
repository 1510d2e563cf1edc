package main

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/kek/vaulttest"
	"github.com/eventchat/eventchat/adapters/keystore"
)

var _ = Describe("Data keys wrapped by a key-encryption key (IM_KEK)", func() {
	const text = "the kestrel nests under the 3rd bridge"
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	kekFile := func() string {
		GinkgoHelper()
		key := make([]byte, 32)
		_, err := rand.Read(key)
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(GinkgoT().TempDir(), "kek")
		Expect(os.WriteFile(path, key, 0o600)).To(Succeed())
		return path
	}
	// startFails runs the server with env and returns why it stopped
	// before it listened.
	startFails := func(env map[string]string) error {
		GinkgoHelper()
		cfg, err := loadConfig(nil, func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return map[string]string{"IM_HTTP_ADDR": "127.0.0.1:0", "IM_DATA_DIR": dir}[k]
		})
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		err = run(ctx, cfg, zap.NewNop(), func(string) { Fail("the server listened") })
		Expect(err).To(HaveOccurred())
		return err
	}
	// kept is what the key store keeps for member, read with the server stopped.
	kept := func(m member) string {
		GinkgoHelper()
		keys, err := keystore.Open(filepath.Join(dir, keystore.FileName))
		Expect(err).NotTo(HaveOccurred())
		defer keys.Close()
		k, ok, err := keys.Key(context.Background(), "x0001", m.ID, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		return string(k)
	}
	chat := func(s *testServer, viewer, peer member) []string {
		GinkgoHelper()
		var h []message
		s.ok("GET", "/v1/message/messagePush/history/list/page?friendMemberId="+peer.ID, viewer.Token, nil, &h)
		var out []string
		for _, m := range h {
			out = append(out, m.Content)
		}
		return out
	}

	It("keeps the keys wrapped by a KEK in a file, and will not start without it or with another", func() {
		kekSetting := map[string]string{"IM_KEK": "file:" + kekFile()}
		s := startWith(dir, zap.NewNop(), kekSetting)
		alice, bob := s.register("alicek01"), s.register("bobk0001")
		s.befriend(alice, bob)
		s.send(alice, bob, "k-1", text)
		Expect(s.stop()).To(Succeed())
		Expect(kept(alice)).To(HavePrefix("kek1:"))
		Expect(filesHolding(filepath.Join(dir, "events"), text)).To(BeEmpty(), "the log holds it sealed")

		Expect(startFails(nil)).To(MatchError(ContainSubstring("IM_KEK: the key store keeps data keys wrapped by a key-encryption key, and none is set")))
		Expect(startFails(map[string]string{"IM_KEK": "file:" + kekFile()})).To(MatchError(ContainSubstring("is IM_KEK the key-encryption key the data keys were wrapped by?")))
		Expect(startFails(map[string]string{"IM_KEK": "file:" + filepath.Join(dir, "absent")})).To(MatchError(ContainSubstring("IM_KEK: kek:")))

		s = startWith(dir, zap.NewNop(), kekSetting)
		Expect(chat(s, s.login("bobk0001"), alice)).To(Equal([]string{text}))
	})

	It("keeps them wrapped by Vault's transit engine (a stand-in), through a rotation of its key, and will not start while Vault is unreachable", func() {
		vault, err := vaulttest.Start("eventchat")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(vault.Close)
		kekSetting := map[string]string{"IM_KEK": "vault:" + vault.Address, "VAULT_TOKEN": vault.Token}
		s := startWith(dir, zap.NewNop(), kekSetting)
		alice, bob := s.register("alicev01"), s.register("bobv0001")
		s.befriend(alice, bob)
		s.send(alice, bob, "v-1", text)
		vault.Rotate()
		carol := s.register("carolv01")
		s.befriend(carol, bob)
		s.send(carol, bob, "v-2", "after the rotation")
		Expect(s.stop()).To(Succeed())
		Expect(kept(alice)).To(HavePrefix("kek1:vault:v1:"))
		Expect(kept(carol)).To(HavePrefix("kek1:vault:v2:"))

		Expect(startFails(map[string]string{"IM_KEK": "vault:" + vault.Address, "VAULT_TOKEN": "s.stolen"})).To(MatchError(ContainSubstring("permission denied")))
		s = startWith(dir, zap.NewNop(), kekSetting)
		bob = s.login("bobv0001")
		Expect(chat(s, bob, alice)).To(Equal([]string{text}))
		Expect(chat(s, bob, carol)).To(Equal([]string{"after the rotation"}))
		Expect(s.stop()).To(Succeed())

		Expect(vault.Close()).To(Succeed())
		Expect(startFails(kekSetting)).To(MatchError(ContainSubstring("kek: Vault:")))
	})
})
