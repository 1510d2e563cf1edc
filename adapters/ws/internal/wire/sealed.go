// Package wire holds what both ends of the socket share: the sealing of frame
// payloads, base64(nonce[12] || AES-256-GCM(plaintext)), and frame headers.
package wire

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
)

// KeySize is the length of a login's frame key (AES-256).
const KeySize = 32

const nonceSize = 12

var (
	// ErrKeySize reports a frame key that is not 32 bytes long.
	ErrKeySize = errors.New("wire: frame key must be 32 bytes")
	// ErrOpen reports a payload that is not valid base64 or fails authentication.
	ErrOpen = errors.New("wire: payload cannot be decrypted")
)

// NewAEAD returns the AES-256-GCM cipher of key.
func NewAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, ErrKeySize
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("wire: %w", err)
	}
	return aead, nil
}

// SealedLen is the length of the text form of an n-byte plaintext.
func SealedLen(aead cipher.AEAD, n int) int {
	return base64.StdEncoding.EncodedLen(nonceSize + n + aead.Overhead())
}

// SealRoom is the spare capacity AppendSealed needs for an n-byte plaintext.
func SealRoom(aead cipher.AEAD, n int) int {
	return SealedLen(aead, n) + nonceSize + n + aead.Overhead()
}

// AppendSealed appends the text form of plaintext to dst.
func AppendSealed(dst []byte, aead cipher.AEAD, plaintext []byte) []byte {
	rawLen := nonceSize + len(plaintext) + aead.Overhead()
	textLen := base64.StdEncoding.EncodedLen(rawLen)
	start := len(dst)
	dst = slices.Grow(dst, textLen+rawLen)
	// The binary form is built past the text's room and encoded into it, so
	// one buffer serves both.
	raw := dst[start+textLen : start+textLen+rawLen]
	nonce := raw[:nonceSize]
	_, _ = rand.Read(nonce) // never fails: crypto/rand panics rather than return short
	aead.Seal(nonce, nonce, plaintext, nil)
	base64.StdEncoding.Encode(dst[start:start+textLen], raw)
	return dst[:start+textLen]
}

// OpenRoom is the spare capacity Open needs for a text of n bytes.
func OpenRoom(n int) int { return base64.StdEncoding.DecodedLen(n) }

// Open decrypts the text form in text. The plaintext is returned in dst's
// spare capacity, which is grown when short; text is left unchanged.
func Open(dst, text []byte, aead cipher.AEAD) ([]byte, error) {
	start := len(dst)
	dst = slices.Grow(dst, OpenRoom(len(text)))
	room := dst[start : start+OpenRoom(len(text))]
	n, err := base64.StdEncoding.Decode(room, text)
	if err != nil || n < nonceSize+aead.Overhead() {
		return nil, ErrOpen
	}
	raw := room[:n]
	sealed := raw[nonceSize:]
	plain, err := aead.Open(sealed[:0], raw[:nonceSize], sealed, nil)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}
