package sqlitestore

import (
	"encoding/hex"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// Event ids are stored as their 16 bytes when they are UUIDs in canonical
// form (lowercase, hyphenated), as they nearly always are, and as text
// otherwise: a 16-byte key makes the id index less than half as large, so
// that more of it stays in memory and fewer of its pages split. The bytes of
// a canonical UUID read back as the same string, and a blob never equals a
// text, so the id index still holds each id once.

// bindEventID binds id as the next parameter of st.
func bindEventID(st *sqlitec.Stmt, id string) {
	if b, ok := uuidBytes(id); ok {
		st.BindBlob(b[:])
		return
	}
	st.BindText(id)
}

// uuidBytes parses a UUID in canonical form.
func uuidBytes(s string) ([16]byte, bool) {
	var out [16]byte
	if len(s) != 36 {
		return out, false
	}
	j := 0
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return out, false
			}
			continue
		}
		h, ok1 := hexDigit(s[i])
		l, ok2 := hexDigit(s[i+1])
		if !ok1 || !ok2 {
			return out, false
		}
		out[j] = h<<4 | l
		j++
		i++
	}
	return out, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// uuidString formats 16 bytes in canonical form.
func uuidString(b []byte) string {
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out[:])
}
