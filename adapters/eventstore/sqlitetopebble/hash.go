package sqlitetopebble

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// Hash is a SHA-256 of a log's events in a canonical encoding of every
// field: numbers as 8 bytes big-endian, strings and data each after its
// length, the time as RFC 3339 in UTC with nanoseconds. Two logs hash the
// same when they hold the same events at the same positions.
type Hash struct {
	h      hash.Hash
	buf    []byte
	events uint64
	head   uint64
}

// NewHash starts the hash of an empty log.
func NewHash() *Hash { return &Hash{h: sha256.New()} }

// Add hashes the next event of the log.
func (h *Hash) Add(e *es.RecordedEvent) {
	b := binary.BigEndian.AppendUint64(h.buf[:0], e.Position)
	b = binary.BigEndian.AppendUint64(b, e.Revision)
	m := &e.Metadata
	for _, s := range [...]string{e.ID, e.Stream, e.Type, string(e.Data), m.Tenant, m.Actor, m.CorrelationID,
		m.CausationID, m.ClientUUID, m.Time.UTC().Format(time.RFC3339Nano)} {
		b = binary.BigEndian.AppendUint64(b, uint64(len(s)))
		b = append(b, s...)
	}
	h.h.Write(b)
	h.buf = b
	h.events++
	h.head = e.Position
}

// Sum is the hash so far, in hex.
func (h *Hash) Sum() string { return hex.EncodeToString(h.h.Sum(nil)) }
