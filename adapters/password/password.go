// Package password hashes passwords and one-time codes with bcrypt.
package password

import (
	"crypto/rand"
	"fmt"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// Bcrypt hashes with a fixed cost.
type Bcrypt struct{ Cost int }

// Hash returns the bcrypt hash of secret.
func (b Bcrypt) Hash(secret string) (string, error) {
	cost := b.Cost
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	h, err := bcrypt.GenerateFromPassword([]byte(secret), cost)
	if err != nil {
		return "", fmt.Errorf("password: %w", err)
	}
	return string(h), nil
}

// Matches reports whether secret hashes to hash. An empty hash never
// matches, but costs the same time as a real comparison, so that unknown
// accounts cannot be told from wrong passwords by timing.
func (b Bcrypt) Matches(hash, secret string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(b.dummy(), []byte(secret))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret)) == nil
}

var (
	dummyOnce sync.Once
	dummyHash []byte
)

func (b Bcrypt) dummy() []byte {
	dummyOnce.Do(func() {
		random := make([]byte, 16)
		_, _ = rand.Read(random)
		h, err := b.Hash(string(random))
		if err == nil {
			dummyHash = []byte(h)
		}
	})
	return dummyHash
}
