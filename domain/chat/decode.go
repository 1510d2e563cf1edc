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
	read := r.object(func(key []byte) (ok bool) {
		switch string(key) {
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
		return ok
	})
	if !read || !r.done() {
		return false
	}
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
	s, ok := r.raw()
	return string(s), ok && utf8.Valid(s)
}

// raw reads a string with no escape and no control character, as it is in
// b.
func (r *reading) raw() ([]byte, bool) {
	if !r.take('"') {
		return nil, false
	}
	start := r.i
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start : r.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
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
	out := []string{}
	ok := r.list('[', ']', func() bool {
		s, ok := r.str()
		out = append(out, s)
		return ok
	})
	return out, ok
}

// object reads an object, handing each key, as it is in b, to field, which
// reads its value.
func (r *reading) object(field func(key []byte) bool) bool {
	return r.list('{', '}', func() bool {
		key, ok := r.raw()
		return ok && r.take(':') && field(key)
	})
}

// list reads open, then items separated by commas, then close; item reads
// one.
func (r *reading) list(open, close byte, item func() bool) bool {
	if !r.take(open) {
		return false
	}
	if r.take(close) {
		return true
	}
	for item() {
		if r.take(close) {
			return true
		}
		if !r.take(',') {
			return false
		}
	}
	return false
}
