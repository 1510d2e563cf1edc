// Package kek holds the key-encryption keys that wrap the members' data
// keys (sealing.KEK): one in a file kept apart from the data directory,
// or one in HashiCorp Vault's transit engine, which never leaves it.
package kek

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
)

// keySize is the size of a key-encryption key: AES-256.
const keySize = 32

// wrapAD binds a wrapped key to its use.
var wrapAD = []byte("eventchat data key")

// File is a key-encryption key read from a file: 32 bytes, or 64
// hexadecimal digits.
type File struct{ aead cipher.AEAD }

// OpenFile reads the key-encryption key in the file at path. The file must
// be readable by its owner only.
func OpenFile(path string) (*File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("kek: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("kek: %s is readable by others (mode %v): chmod 600 it", path, info.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("kek: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	switch {
	case err == nil && len(key) == keySize:
	case err != nil && len(b) == keySize:
		key = b
	default:
		return nil, fmt.Errorf("kek: %s holds neither 32 bytes nor 64 hexadecimal digits", path)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &File{aead: aead}, nil
}

// Wrap seals key with a random nonce: nonce || ciphertext.
func (f *File) Wrap(_ context.Context, key []byte) ([]byte, error) {
	nonce := make([]byte, f.aead.NonceSize(), f.aead.NonceSize()+len(key)+f.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return f.aead.Seal(nonce, nonce, key, wrapAD), nil
}

// Unwrap opens what Wrap sealed; another key-encryption key fails.
func (f *File) Unwrap(_ context.Context, wrapped []byte) ([]byte, error) {
	n := f.aead.NonceSize()
	if len(wrapped) < n {
		return nil, errors.New("kek: the wrapped key is too short")
	}
	key, err := f.aead.Open(nil, wrapped[:n], wrapped[n:], wrapAD)
	if err != nil {
		return nil, errors.New("kek: the key does not unwrap with this key-encryption key")
	}
	return key, nil
}
