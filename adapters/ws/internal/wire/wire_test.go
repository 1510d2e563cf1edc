package wire_test

import (
	"bytes"
	"encoding/base64"
	"sync"

	"github.com/gobwas/ws"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
)

var _ = Describe("Sealing", func() {
	key := bytes.Repeat([]byte{7}, wire.KeySize)

	It("opens what it sealed, in the announced length", func() {
		aead, err := wire.NewAEAD(key)
		Expect(err).NotTo(HaveOccurred())
		plain := []byte(`{"cmd":11,"data":{"content":"hi"}}`)
		text := wire.AppendSealed([]byte("prefix"), aead, plain)
		Expect(text[:6]).To(Equal([]byte("prefix")))
		Expect(text[6:]).To(HaveLen(wire.SealedLen(aead, len(plain))))

		opened, err := wire.Open(nil, text[6:], aead)
		Expect(err).NotTo(HaveOccurred())
		Expect(opened).To(Equal(plain))
	})

	It("uses a fresh nonce every time, from many goroutines at once", func() {
		aead, _ := wire.NewAEAD(key)
		const goroutines, each = 8, 500
		nonces := make(chan string, goroutines*each)
		var wg sync.WaitGroup
		for range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					raw, err := base64.StdEncoding.DecodeString(string(wire.AppendSealed(nil, aead, []byte("x"))))
					if err == nil {
						nonces <- string(raw[:12])
					}
				}
			}()
		}
		wg.Wait()
		close(nonces)
		seen := map[string]bool{}
		for n := range nonces {
			Expect(seen).NotTo(HaveKey(n))
			seen[n] = true
		}
		Expect(seen).To(HaveLen(goroutines * each))
	})

	It("refuses tampered, short and non-base64 payloads", func() {
		aead, _ := wire.NewAEAD(key)
		raw, _ := base64.StdEncoding.DecodeString(string(wire.AppendSealed(nil, aead, []byte("hello"))))
		raw[len(raw)-1] ^= 1
		for _, text := range []string{base64.StdEncoding.EncodeToString(raw), "AAAA", "%%%", ""} {
			_, err := wire.Open(nil, []byte(text), aead)
			Expect(err).To(MatchError(wire.ErrOpen))
		}
	})

	It("refuses keys that are not 32 bytes", func() {
		_, err := wire.NewAEAD(key[:16])
		Expect(err).To(MatchError(wire.ErrKeySize))
	})
})

var _ = DescribeTable("Frame headers read back by gobwas",
	func(length int, masked bool) {
		var mask *[4]byte
		if masked {
			mask = &[4]byte{1, 2, 3, 4}
		}
		h, err := ws.ReadHeader(bytes.NewReader(wire.AppendHeader(nil, ws.OpText, length, mask)))
		Expect(err).NotTo(HaveOccurred())
		Expect(h.Fin).To(BeTrue())
		Expect(h.OpCode).To(Equal(ws.OpText))
		Expect(h.Length).To(Equal(int64(length)))
		Expect(h.Masked).To(Equal(masked))
		if masked {
			Expect(h.Mask).To(Equal(*mask))
		}
	},
	Entry("short", 125, false),
	Entry("16-bit length", 126, true),
	Entry("16-bit maximum", 65535, false),
	Entry("64-bit length", 65536, true),
)

var _ = Describe("The frame format shared with the web client", func() {
	It("opens the vector the web client's codec tests seal (ui/tests/codec.test.ts)", func() {
		key := make([]byte, 32)
		for i := range key {
			key[i] = byte(i)
		}
		aead, err := wire.NewAEAD(key)
		Expect(err).NotTo(HaveOccurred())
		plain, err := wire.Open(nil, []byte("EBESExQVFhcYGRobBtz7ey3rAIL5CHPiVAyOSxyqv/Hj0uV4jkw="), aead)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(plain)).To(Equal(`{"cmd":13}`))
	})
})
