package bus

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/projections"
)

// A batch travels either as JSON, an array of deltas, or packed: packedBatch,
// then the count and each delta's fields, strings and Data prefixed by
// their length. Packing copies Data as it is, where JSON validates and
// compacts it on the way out and again on the way in; a process's own bus
// packs. NATS carries JSON, which nodes of an earlier version read too.
const packedBatch = 0x01

// packDeltas packs a batch.
func packDeltas(ds []projections.Delta) ([]byte, error) {
	n := 1 + binary.MaxVarintLen64
	for _, d := range ds {
		n += 5*binary.MaxVarintLen64 + len(d.Tenant) + len(d.Session) + len(d.Data)
		for _, to := range d.To {
			n += binary.MaxVarintLen64 + len(to)
		}
	}
	p := make([]byte, 0, n)
	p = append(p, packedBatch)
	p = binary.AppendUvarint(p, uint64(len(ds)))
	for _, d := range ds {
		p = appendString(p, d.Tenant)
		// 0 for no recipients list, else its length plus one: JSON keeps nil
		// and empty apart too.
		if d.To == nil {
			p = binary.AppendUvarint(p, 0)
		} else {
			p = binary.AppendUvarint(p, uint64(len(d.To))+1)
		}
		for _, to := range d.To {
			p = appendString(p, to)
		}
		p = appendString(p, d.Session)
		p = binary.AppendVarint(p, int64(d.Cmd))
		p = binary.AppendUvarint(p, d.Position)
		p = binary.AppendUvarint(p, uint64(len(d.Data)))
		p = append(p, d.Data...)
	}
	return p, nil
}

func appendString(p []byte, s string) []byte {
	p = binary.AppendUvarint(p, uint64(len(s)))
	return append(p, s...)
}

// unpackDeltas reads a batch in either form. The Data of packed deltas
// shares p's memory: p must not change after.
func unpackDeltas(p []byte) ([]projections.Delta, error) {
	if len(p) == 0 || p[0] != packedBatch {
		var ds []projections.Delta
		if err := json.Unmarshal(p, &ds); err != nil {
			return nil, fmt.Errorf("bus: decode deltas: %w", err)
		}
		return ds, nil
	}
	r := reader{p: p[1:]}
	count := r.uvarint()
	if count > uint64(len(r.p)) { // every delta takes bytes
		return nil, errMalformed
	}
	ds := make([]projections.Delta, 0, count)
	for range count {
		var d projections.Delta
		d.Tenant = string(r.bytes())
		if to := r.uvarint(); to > 0 {
			if to-1 > uint64(len(r.p)) {
				return nil, errMalformed
			}
			d.To = make([]string, to-1)
			for i := range d.To {
				d.To[i] = string(r.bytes())
			}
		}
		d.Session = string(r.bytes())
		d.Cmd = int(r.varint())
		d.Position = r.uvarint()
		if data := r.bytes(); len(data) > 0 {
			d.Data = json.RawMessage(data[:len(data):len(data)])
		}
		if r.bad {
			return nil, errMalformed
		}
		ds = append(ds, d)
	}
	if r.bad || len(r.p) > 0 {
		return nil, errMalformed
	}
	return ds, nil
}

var errMalformed = errors.New("bus: decode deltas: malformed batch")

// reader takes a packed batch apart; once past its end, every read gives
// zero and bad is set.
type reader struct {
	p   []byte
	bad bool
}

func (r *reader) uvarint() uint64 { return r.took(binary.Uvarint(r.p)) }

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.p)
	return int64(r.took(uint64(v), n))
}

// took moves past a varint of n bytes read as v; n <= 0 marks r bad.
func (r *reader) took(v uint64, n int) uint64 {
	if n <= 0 {
		r.bad, r.p = true, nil
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.p)) {
		r.bad, r.p = true, nil
		return nil
	}
	b := r.p[:n]
	r.p = r.p[n:]
	return b
}
