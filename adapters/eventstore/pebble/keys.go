package pebblestore

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/eventstore/internal/cache"
	"github.com/eventchat/eventchat/domain/es"
)

// The key layout, each key led by a one-byte prefix:
//
//	'e' position (8 bytes, big-endian)                    → the event
//	's' uvarint(len(stream)) stream revision (8 bytes BE) → position
//	'i' event id                                          → position, revision (8 bytes BE each)
//	'm'                                                   → markerValue
//
// Big-endian numbers sort as numbers, so the events of the log and of each
// stream are in order; the length before a stream name keeps one stream's
// keys from running into another's.
const (
	prefixEvent  = 'e'
	prefixStream = 's'
	prefixID     = 'i'
)

var markerKey = []byte{'m'}

// markerValue names the store and its format.
const markerValue = "eventchat event log, format 1"

func eventKey(pos uint64) []byte {
	k := make([]byte, 9)
	k[0] = prefixEvent
	binary.BigEndian.PutUint64(k[1:], pos)
	return k
}

func positionOfKey(k []byte) uint64 { return binary.BigEndian.Uint64(k[1:]) }

// streamPrefix is the prefix of the revision keys of stream.
func streamPrefix(stream string) []byte {
	k := make([]byte, 0, 1+binary.MaxVarintLen64+len(stream)+8)
	k = append(k, prefixStream)
	k = binary.AppendUvarint(k, uint64(len(stream)))
	return append(k, stream...)
}

func streamKey(prefix []byte, rev uint64) []byte {
	return binary.BigEndian.AppendUint64(append(make([]byte, 0, len(prefix)+8), prefix...), rev)
}

func positionValue(pos uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), pos) }

func revisionOfKey(k []byte) uint64 { return binary.BigEndian.Uint64(k[len(k)-8:]) }

// upperBound is the first key after every key starting with prefix, which
// does not end with 0xff here: it ends with a stream name or a prefix byte.
func upperBound(prefix []byte) []byte {
	b := append([]byte(nil), prefix...)
	b[len(b)-1]++
	return b
}

func idKey(id string) []byte { return append([]byte{prefixID}, id...) }

func idValue(pos, rev uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), pos), rev)
}

func decodeIDValue(v []byte) (pos, rev uint64, err error) {
	if len(v) != 16 {
		return 0, 0, fmt.Errorf("id entry of %d bytes", len(v))
	}
	return binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:]), nil
}

// encodeEvent is the value of an event: its revision (8 bytes, big-endian,
// so that setRevision can fill it in later), then its strings each after
// its length, its time in time.Time's binary form, and its data last. The
// position is the key's.
func encodeEvent(e *es.RecordedEvent) ([]byte, error) {
	t, err := e.Metadata.Time.MarshalBinary()
	if err != nil {
		return nil, err
	}
	m := &e.Metadata
	strs := [...]string{e.ID, e.Stream, e.Type, m.Tenant, m.Actor, m.CorrelationID, m.CausationID, m.ClientUUID, string(t)}
	size := binary.MaxVarintLen64 + len(e.Data)
	for _, s := range strs {
		size += binary.MaxVarintLen64 + len(s)
	}
	b := binary.BigEndian.AppendUint64(make([]byte, 0, size), e.Revision)
	for _, s := range strs {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return append(b, e.Data...), nil
}

func setRevision(value []byte, rev uint64) { binary.BigEndian.PutUint64(value, rev) }

var errMalformed = errors.New("malformed event")

// decodeEvent decodes the value of the event at pos; types interns its type.
func decodeEvent(pos uint64, v []byte, types *cache.Types) (es.RecordedEvent, error) {
	e := es.RecordedEvent{Position: pos}
	if len(v) < 8 {
		return e, fmt.Errorf("event at %d: %w", pos, errMalformed)
	}
	e.Revision, v = binary.BigEndian.Uint64(v), v[8:]
	var fields [9][]byte
	for i := range fields {
		l, n := binary.Uvarint(v)
		if n <= 0 || uint64(len(v)-n) < l {
			return e, fmt.Errorf("event at %d: %w", pos, errMalformed)
		}
		fields[i], v = v[n:n+int(l)], v[n+int(l):]
	}
	m := &e.Metadata
	e.ID, e.Stream, e.Type = string(fields[0]), string(fields[1]), types.Intern(fields[2])
	m.Tenant, m.Actor, m.CorrelationID = string(fields[3]), string(fields[4]), string(fields[5])
	m.CausationID, m.ClientUUID = string(fields[6]), string(fields[7])
	if err := m.Time.UnmarshalBinary(fields[8]); err != nil {
		return e, fmt.Errorf("event at %d: time: %w", pos, err)
	}
	e.Data = append([]byte{}, v...)
	return e, nil
}
