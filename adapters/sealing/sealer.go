// Package sealing encrypts the personal fields of events with their
// member's data key as they are appended and decrypts them as they are
// read (crypto-shredding): the log, its backups and its exports hold them
// sealed, and destroying a member's key erases them from all of those at
// once. Commands and projections read the log through Store and see
// plaintext, or es.Erased once a key is destroyed; they never handle keys.
package sealing

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/eventchat/eventchat/domain/es"
)

// Keys keeps one data key per member, apart from the log. What it keeps is
// opaque to it: a key, or a key wrapped by a KEK.
type Keys interface {
	// Key returns what is kept for member. When there is nothing and mk is
	// not nil, it keeps what mk returns, unless another handle kept
	// something first, which it then returns. ok is false when the key was
	// destroyed, or when there is none and mk is nil.
	Key(ctx context.Context, tenant, member string, mk func() ([]byte, error)) (kept []byte, ok bool, err error)
	// Destroy destroys member's key for ever: Key never keeps another.
	Destroy(ctx context.Context, tenant, member string) error
}

// KEK is a key-encryption key held by a key management service: the data
// keys are kept wrapped by it, so that the key store, or a copy of it, is
// of no use without the service.
type KEK interface {
	Wrap(ctx context.Context, key []byte) ([]byte, error)
	Unwrap(ctx context.Context, wrapped []byte) ([]byte, error)
}

// keySize is the size of a data key: AES-256.
const keySize = 32

// wrappedPrefix marks a kept key wrapped by the KEK; a kept key of
// keySize bytes without it was made while none was set, and is used as it
// is.
const wrappedPrefix = "kek1:"

// kekCheck is the member of indexTenant whose key is made, wrapped, on the
// first start with a KEK: unwrapping it at each start proves the KEK is
// the one the keys were wrapped by.
const kekCheck = "kek-check"

// ErrKEKNeeded tells that the key store keeps keys wrapped by a KEK and
// none is set.
var ErrKEKNeeded = errors.New("the key store keeps data keys wrapped by a key-encryption key, and none is set (IM_KEK)")

// prefix marks a sealed field: "sealed1:" and the base64 of the nonce and
// the AES-256-GCM ciphertext. A field without it was written before
// sealing existed and reads as it is.
const prefix = "sealed1:"

// The key of the claims' index: not a member's, and never destroyed.
const (
	indexTenant = "*"
	indexMember = "claim-index"
)

// personal is what an event type seals: the owner's field ("" for the
// member stream's id) and the sealed fields.
type personal struct {
	owner  string
	fields []string
}

// Sealer seals and opens the personal fields of events.
type Sealer struct {
	keys     Keys
	kek      KEK                 // nil: keys are kept as they are
	personal map[string]personal // by type name
	erasures map[string]bool     // the es.Erasure types, by name
	mu       sync.RWMutex
	cache    map[keyRef]*dataKey // nil: destroyed
}

type keyRef struct{ tenant, member string }

// dataKey is a key with its cipher, made once: the cipher holds no state
// between calls, so any goroutine seals and opens with it.
type dataKey struct {
	raw  []byte
	aead cipher.AEAD
}

func newDataKey(raw []byte) *dataKey {
	block, err := aes.NewCipher(raw)
	if err != nil {
		panic("sealing: a data key is not an AES key: " + err.Error())
	}
	a, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &dataKey{raw: raw, aead: a}
}

// Option configures a Sealer.
type Option func(*Sealer)

// WrappedBy keeps the keys the sealer makes wrapped by kek. Keys made
// before, unwrapped, stay readable.
func WrappedBy(kek KEK) Option { return func(s *Sealer) { s.kek = kek } }

// New returns a sealer of the events of registry that are es.Personal.
func New(keys Keys, registry es.Registry, opts ...Option) *Sealer {
	s := &Sealer{keys: keys, personal: map[string]personal{}, erasures: map[string]bool{}, cache: map[keyRef]*dataKey{}}
	for _, o := range opts {
		o(s)
	}
	for name, mk := range registry {
		e := mk()
		if p, ok := e.(es.Personal); ok {
			owner, fields := p.PersonalFields()
			s.personal[name] = personal{owner: owner, fields: fields}
		}
		if _, ok := e.(es.Erasure); ok {
			s.erasures[name] = true
		}
	}
	return s
}

// key returns member's key, nil when it is destroyed (or absent and not
// created).
func (s *Sealer) key(ctx context.Context, tenant, member string, create bool) (*dataKey, error) {
	ref := keyRef{tenant, member}
	s.mu.RLock()
	k, cached := s.cache[ref]
	s.mu.RUnlock()
	if cached { // nil: destroyed, or erased by an erasure read in the log
		return k, nil
	}
	var mk func() ([]byte, error)
	if create {
		mk = func() ([]byte, error) { return s.makeKey(ctx) }
	}
	kept, ok, err := s.keys.Key(ctx, tenant, member, mk)
	if err != nil {
		return nil, err
	}
	k = nil
	if ok {
		raw, err := s.unwrap(ctx, kept)
		if err != nil {
			return nil, fmt.Errorf("sealing: the key of %s/%s: %w", tenant, member, err)
		}
		k = newDataKey(raw)
	}
	// An absent key is not cached: another node may make it.
	if ok || create {
		s.mu.Lock()
		s.cache[ref] = k
		s.mu.Unlock()
	}
	return k, nil
}

// makeKey makes a data key, wrapped when the sealer has a KEK.
func (s *Sealer) makeKey(ctx context.Context) ([]byte, error) {
	raw := make([]byte, keySize)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	if s.kek == nil {
		return raw, nil
	}
	wrapped, err := s.kek.Wrap(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("sealing: wrap a data key: %w", err)
	}
	return append([]byte(wrappedPrefix), wrapped...), nil
}

// unwrap returns the data key kept as kept.
func (s *Sealer) unwrap(ctx context.Context, kept []byte) ([]byte, error) {
	wrapped, isWrapped := bytes.CutPrefix(kept, []byte(wrappedPrefix))
	switch {
	case !isWrapped && len(kept) == keySize:
		return kept, nil
	case !isWrapped:
		return nil, fmt.Errorf("a kept key of %d bytes is no data key", len(kept))
	case s.kek == nil:
		return nil, ErrKEKNeeded
	}
	raw, err := s.kek.Unwrap(ctx, wrapped)
	if err != nil {
		return nil, fmt.Errorf("unwrap: %w", err)
	}
	if len(raw) != keySize {
		return nil, fmt.Errorf("unwrapped a key of %d bytes, want %d", len(raw), keySize)
	}
	return raw, nil
}

// CheckKEK tells whether the key store and the sealer's KEK go together: a
// store whose keys a KEK wraps needs that KEK. The first check with a KEK
// makes the key it unwraps from then on.
func (s *Sealer) CheckKEK(ctx context.Context) error {
	_, err := s.key(ctx, indexTenant, kekCheck, s.kek != nil)
	switch {
	case errors.Is(err, ErrKEKNeeded):
		return ErrKEKNeeded
	case err != nil && s.kek != nil:
		return fmt.Errorf("%w: is IM_KEK the key-encryption key the data keys were wrapped by?", err)
	}
	return err
}

// Destroy destroys member's key: everything sealed under it reads as
// es.Erased from then on, and its new events keep no personal data.
func (s *Sealer) Destroy(ctx context.Context, tenant, member string) error {
	if err := s.keys.Destroy(ctx, tenant, member); err != nil {
		return err
	}
	s.forget(tenant, member)
	return nil
}

// KeyLives tells whether the key store keeps member's key, whatever this
// sealer read of its erasure.
func (s *Sealer) KeyLives(ctx context.Context, tenant, member string) (bool, error) {
	_, ok, err := s.keys.Key(ctx, tenant, member, nil)
	return ok, err
}

// forget makes member's key read as destroyed from now on.
func (s *Sealer) forget(tenant, member string) {
	s.mu.Lock()
	s.cache[keyRef{tenant, member}] = nil
	s.mu.Unlock()
}

// Blind returns the keyed hash that names the claim on a value (a phone
// number, an account name) in place of the value: the log's stream names
// then hold no personal data, and only the holder of the index key can
// find a value's claim.
func (s *Sealer) Blind(ctx context.Context) (func(value string) string, error) {
	k, err := s.key(ctx, indexTenant, indexMember, true)
	if err != nil {
		return nil, fmt.Errorf("sealing: the claims' index key: %w", err)
	}
	return func(value string) string {
		h := hmac.New(sha256.New, k.raw)
		h.Write([]byte(value))
		return "h" + hex.EncodeToString(h.Sum(nil)[:16])
	}, nil
}

// spec returns what the stored type seals, false when nothing.
func (s *Sealer) spec(stored string) (personal, bool) {
	name, _, err := es.ParseType(stored)
	if err != nil {
		return personal{}, false
	}
	p, ok := s.personal[name]
	return p, ok
}

// Seal returns events with their personal fields sealed for an append to
// stream. The fields of a member whose key is destroyed are stored as
// es.Erased.
func (s *Sealer) Seal(ctx context.Context, stream string, events []es.EventData) ([]es.EventData, error) {
	var out []es.EventData
	for i, e := range events {
		p, ok := s.spec(e.Type)
		if !ok {
			continue
		}
		data, err := s.rewrite(ctx, p, stream, e.Metadata.Tenant, e.ID, e.Data, true)
		if err != nil {
			return nil, fmt.Errorf("sealing: seal %s: %w", e.Type, err)
		}
		if out == nil {
			out = append([]es.EventData(nil), events...)
		}
		out[i].Data = data
	}
	if out == nil {
		return events, nil
	}
	return out, nil
}

// Open returns recs with their personal fields opened: es.Erased where
// their member's key is destroyed or unknown.
func (s *Sealer) Open(ctx context.Context, recs []es.RecordedEvent) ([]es.RecordedEvent, error) {
	var out []es.RecordedEvent
	for i, r := range recs {
		s.noteErasure(r.Stream, r.Type, r.Metadata.Tenant)
		p, ok := s.spec(r.Type)
		if !ok {
			continue
		}
		data, err := s.rewrite(ctx, p, r.Stream, r.Metadata.Tenant, r.ID, r.Data, false)
		if err != nil {
			return nil, fmt.Errorf("sealing: open %s at %d: %w", r.Type, r.Position, err)
		}
		if out == nil {
			out = append([]es.RecordedEvent(nil), recs...)
		}
		out[i].Data = data
	}
	if out == nil {
		return recs, nil
	}
	return out, nil
}

// noteErasure forgets the key of the member an erasure of type stored in
// stream erases, once it is in the log: the node that destroys the key may
// be another, and this one then reads the erasure before it would find
// the key gone.
func (s *Sealer) noteErasure(stream, stored, tenant string) {
	name, _, err := es.ParseType(stored)
	if err != nil || !s.erasures[name] {
		return
	}
	if sn, err := es.ParseStream(stream); err == nil && sn.Category == es.CategoryMember {
		s.forget(tenant, sn.ID)
	}
}

// rewrite seals (or opens) the personal fields of one payload. A payload
// that is not a JSON object, or has no owner, is left to the decoder.
func (s *Sealer) rewrite(ctx context.Context, p personal, stream, tenant, id string, data []byte, seal bool) ([]byte, error) {
	names := p.fields
	if p.owner != "" {
		names = append([]string{p.owner}, p.fields...)
	}
	found, ok := stringFields(data, names)
	if !ok {
		return data, nil
	}
	owner := ""
	if p.owner == "" {
		if sn, err := es.ParseStream(stream); err == nil && sn.Category == es.CategoryMember {
			owner = sn.ID
		}
	} else {
		for _, f := range found {
			if f.name == p.owner {
				owner, _ = f.value(data)
			}
		}
	}
	if owner == "" {
		return data, nil
	}
	var key *dataKey
	keyRead := false
	var out []byte
	last := 0
	for _, f := range found {
		if f.name == p.owner {
			continue
		}
		v, ok := f.value(data)
		if !ok || v == "" || (!seal && !strings.HasPrefix(v, prefix)) {
			continue
		}
		if !keyRead {
			var err error
			if key, err = s.key(ctx, tenant, owner, seal); err != nil {
				return nil, err
			}
			keyRead = true
		}
		aad := tenant + "\x00" + owner + "\x00" + id + "\x00" + f.name
		var b []byte
		var err error
		switch {
		case key != nil && seal:
			b = []byte(`"` + sealField(key, aad, v) + `"`) // base64: nothing to escape
		case key != nil:
			b, err = json.Marshal(openField(key, aad, v))
		default:
			b, err = json.Marshal(es.Erased)
		}
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = make([]byte, 0, len(data)+len(b))
		}
		out = append(append(out, data[last:f.start]...), b...)
		last = f.end
	}
	if out == nil {
		return data, nil
	}
	return append(out, data[last:]...), nil
}

func sealField(key *dataKey, aad, v string) string {
	a := key.aead
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(v)+a.Overhead())
	_, _ = rand.Read(nonce)
	return prefix + base64.RawStdEncoding.EncodeToString(a.Seal(nonce, nonce, []byte(v), []byte(aad)))
}

// openField opens a sealed field; one that does not open under key (a
// plaintext written before sealing that happens to begin as a sealed one
// does) reads as it is.
func openField(key *dataKey, aad, v string) string {
	a := key.aead
	b, err := base64.RawStdEncoding.DecodeString(v[len(prefix):])
	if err != nil || len(b) < a.NonceSize() {
		return v
	}
	plain, err := a.Open(b[a.NonceSize():a.NonceSize()], b[:a.NonceSize()], b[a.NonceSize():], []byte(aad))
	if err != nil {
		return v
	}
	return string(plain)
}
