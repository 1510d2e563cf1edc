// Package sealing encrypts the personal fields of events with their
// member's data key as they are appended and decrypts them as they are
// read (crypto-shredding): the log, its backups and its exports hold them
// sealed, and destroying a member's key erases them from all of those at
// once. Commands and projections read the log through Store and see
// plaintext, or es.Erased once a key is destroyed; they never handle keys.
package sealing

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/eventchat/eventchat/domain/es"
)

// Keys keeps one data key per member, apart from the log.
type Keys interface {
	// Key returns member's data key; with create, a member that never had
	// one gets a new one. ok is false when the key was destroyed, or when
	// there is none and create is false.
	Key(ctx context.Context, tenant, member string, create bool) (key []byte, ok bool, err error)
	// Destroy destroys member's key for ever: Key never makes another.
	Destroy(ctx context.Context, tenant, member string) error
}

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

// New returns a sealer of the events of registry that are es.Personal.
func New(keys Keys, registry es.Registry) *Sealer {
	s := &Sealer{keys: keys, personal: map[string]personal{}, erasures: map[string]bool{}, cache: map[keyRef]*dataKey{}}
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
	raw, ok, err := s.keys.Key(ctx, tenant, member, create)
	if err != nil {
		return nil, err
	}
	k = nil
	if ok {
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

// Destroy destroys member's key: everything sealed under it reads as
// es.Erased from then on, and its new events keep no personal data.
func (s *Sealer) Destroy(ctx context.Context, tenant, member string) error {
	if err := s.keys.Destroy(ctx, tenant, member); err != nil {
		return err
	}
	s.forget(tenant, member)
	return nil
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
