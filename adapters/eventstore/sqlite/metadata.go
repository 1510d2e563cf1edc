package sqlitestore

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/es"
)

// metadataFields are the fields of es.Metadata in the order encoding/json
// writes them, each with the comma before it but the first, and whether
// they are left out when empty.
var metadataFields = [...]struct {
	key       string
	omitEmpty bool
}{
	{`"tenant":`, false}, {`,"actor":`, true}, {`,"correlationId":`, true},
	{`,"causationId":`, true}, {`,"clientUuid":`, true}, {`,"time":`, false},
}

// decodeMetadata decodes stored metadata into m. Reading every event's
// metadata through reflection cost a tenth of a catch-up, so the form
// encodeEvent writes (encoding/json, fields in order, no escapes) is read
// directly; anything else goes through encoding/json.
func decodeMetadata(b []byte, m *es.Metadata) error {
	if decodeMetadataAsWritten(b, m) {
		return nil
	}
	*m = es.Metadata{}
	return json.Unmarshal(b, m)
}

func decodeMetadataAsWritten(b []byte, m *es.Metadata) bool {
	rest, ok := bytes.CutPrefix(b, []byte("{"))
	if !ok {
		return false
	}
	var values [len(metadataFields)][]byte // with their quotes
	for i, f := range metadataFields {
		after, ok := bytes.CutPrefix(rest, []byte(f.key))
		if !ok {
			if f.omitEmpty {
				continue
			}
			return false
		}
		v, tail, ok := plainString(after)
		if !ok {
			return false
		}
		values[i], rest = v, tail
	}
	if !bytes.Equal(rest, []byte("}")) {
		return false
	}
	var t es.Metadata
	if err := t.Time.UnmarshalJSON(values[5]); err != nil {
		return false
	}
	str := func(v []byte) string {
		if len(v) < 2 {
			return ""
		}
		return string(v[1 : len(v)-1])
	}
	t.Tenant, t.Actor, t.CorrelationID = str(values[0]), str(values[1]), str(values[2])
	t.CausationID, t.ClientUUID = str(values[3]), str(values[4])
	*m = t
	return true
}

// plainString splits a JSON string with no escapes, quotes included, off
// the front of b.
func plainString(b []byte) (s, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return nil, nil, false
	}
	s = b[:end+2]
	for _, c := range s[1 : end+1] {
		if c < 0x20 || c == '\\' {
			return nil, nil, false
		}
	}
	if !utf8.Valid(s) {
		return nil, nil, false
	}
	return s, b[end+2:], true
}
