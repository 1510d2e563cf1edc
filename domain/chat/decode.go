package chat

import (
	"strconv"
	"unicode/utf8"
)

// DecodeQuick reads a MessageSent, the most frequent event of every log,
// which each projection and every rebuild decodes once more, when b has the
// form json.Marshal writes (keys as tagged, no space, strings without
// escapes, at an integer): that form is a subset of JSON, and it is read
// without reflection. It reports false for any other input and leaves m
// as it was (see es.QuickDecoder).
func (m *MessageSent) DecodeQuick(b []byte) bool {
	v := *m
	r := reading{b: b}
	if !r.take('{') {
		return false
	}
	if r.take('}') {
		return r.done() && m.set(v)
	}
	for {
		key, ok := r.str()
		if !ok || !r.take(':') {
			return false
		}
		switch key {
		case "messageId":
			v.MessageID, ok = r.str()
		case "uuid":
			v.UUID, ok = r.str()
		case "chatType":
			v.ChatType, ok = r.str()
		case "from":
			v.From, ok = r.str()
		case "to":
			v.To, ok = r.str()
		case "groupId":
			v.GroupID, ok = r.str()
		case "msgType":
			v.MsgType, ok = r.str()
		case "content":
			v.Content, ok = r.str()
		case "at":
			v.At, ok = r.int()
		case "parent":
			v.Parent, ok = r.str()
		case "forwardBatchId":
			v.ForwardBatchID, ok = r.str()
		case "forwardBatch":
			v.ForwardBatch, ok = r.strs()
		case "forwardFrom":
			v.ForwardFrom, ok = r.str()
		case "forwardType":
			v.ForwardType, ok = r.str()
		default:
			return false
		}
		switch {
		case !ok:
			return false
		case r.take(','):
		case r.take('}'):
			return r.done() && m.set(v)
		default:
			return false
		}
	}
}

func (m *MessageSent) set(v MessageSent) bool {
	*m = v
	return true
}

// reading walks JSON as json.Marshal writes it; each method reports false
// for anything else.
type reading struct {
	b []byte
	i int
}

func (r *reading) take(c byte) bool {
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

func (r *reading) done() bool { return r.i == len(r.b) }

// str reads a string with no escape, no control character and valid UTF-8:
// one encoding/json reads the same.
func (r *reading) str() (string, bool) {
	if !r.take('"') {
		return "", false
	}
	start := r.i
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			s := r.b[start:r.i]
			r.i++
			return string(s), utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// int reads an integer without sign, fraction or exponent, or with a minus.
func (r *reading) int() (int64, bool) {
	start := r.i
	r.take('-')
	digits := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || (r.b[digits] == '0' && r.i-digits > 1) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(r.b[start:r.i]), 10, 64)
	return n, err == nil
}

// strs reads an array of strings, which json.Marshal writes for a non-nil
// slice.
func (r *reading) strs() ([]string, bool) {
	if !r.take('[') {
		return nil, false
	}
	out := []string{}
	if r.take(']') {
		return out, true
	}
	for {
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		switch {
		case r.take(','):
		case r.take(']'):
			return out, true
		default:
			return nil, false
		}
	}
}
