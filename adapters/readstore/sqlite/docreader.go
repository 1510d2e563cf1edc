package sqliteread

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/eventchat/eventchat/projections"
)

var errBadDoc = errors.New("malformed message doc")

// decodeDoc reads a doc appendDoc wrote into m. Strings without escapes
// are not copied: they share doc's memory.
func decodeDoc(doc string, m *projections.Message) error {
	d := docReader{s: doc}
	d.expect('{')
	for d.err == nil && !d.skip('}') {
		if d.i > 1 {
			d.expect(',')
		}
		key := d.str()
		d.expect(':')
		switch key {
		case "uuid":
			m.UUID = d.str()
		case "tenant":
			m.Tenant = d.str()
		case "position":
			m.Position = uint64(d.int())
		case "chatType":
			m.ChatType = d.str()
		case "from":
			m.From = d.str()
		case "groupId":
			m.GroupID = d.str()
		case "msgType":
			m.MsgType = d.str()
		case "serverReceiveTime":
			m.ServerReceiveTime = d.int()
		case "parent":
			m.ParentMessageID = d.str()
		case "fwdBatchId":
			m.ForwardBatchID = d.str()
		case "fwdBatch":
			m.ForwardBatch = strings.Split(d.str(), ",")
		case "fwdFrom":
			m.ForwardFrom = d.str()
		case "fwdType":
			m.ForwardType = d.str()
		case "opType":
			m.OperationType = d.str()
		case "operatorId":
			m.OperatorID = d.str()
		case "targetId":
			m.TargetID = d.str()
		case "hiddenFor":
			m.HiddenFor = strings.Split(d.str(), ",")
		case "editTime":
			m.EditTime = d.int()
		case "recallTime":
			m.RecallTime = d.int()
		case "deleted":
			m.Deleted = d.int() != 0
		default:
			d.err = errBadDoc
		}
	}
	if d.err == nil && d.i != len(d.s) {
		d.err = errBadDoc
	}
	return d.err
}

// docReader reads the JSON subset appendDoc writes: one flat object of
// strings and integers, no whitespace.
type docReader struct {
	s   string
	i   int
	err error
}

func (d *docReader) expect(c byte) {
	if !d.skip(c) {
		d.err = errBadDoc
	}
}

// skip consumes c if it comes next.
func (d *docReader) skip(c byte) bool {
	if d.err == nil && d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *docReader) int() int64 {
	start := d.i
	for d.i < len(d.s) && (d.s[d.i] == '-' || d.s[d.i] >= '0' && d.s[d.i] <= '9') {
		d.i++
	}
	n, err := strconv.ParseInt(d.s[start:d.i], 10, 64)
	if err != nil && d.err == nil {
		d.err = errBadDoc
	}
	return n
}

func (d *docReader) str() string {
	d.expect('"')
	if d.err != nil {
		return ""
	}
	start := d.i
	for d.i < len(d.s) && d.s[d.i] != '"' && d.s[d.i] != '\\' {
		d.i++
	}
	if d.i < len(d.s) && d.s[d.i] == '"' {
		d.i++
		return d.s[start : d.i-1]
	}
	return d.escaped(start)
}

// escaped finishes a string holding escapes, begun at start.
func (d *docReader) escaped(start int) string {
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		d.i++
		switch {
		case c == '"':
			return string(b)
		case c != '\\':
			b = append(b, c)
		case d.i >= len(d.s):
			d.err = errBadDoc
			return ""
		default:
			e := d.s[d.i]
			d.i++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				b = utf8.AppendRune(b, d.unicode())
			default:
				d.err = errBadDoc
				return ""
			}
		}
	}
	d.err = errBadDoc
	return ""
}

// unicode reads the hex digits of a \u escape, and of the low half of a
// surrogate pair that follows a high half.
func (d *docReader) unicode() rune {
	r := d.hex4()
	if utf16.IsSurrogate(r) && d.i+6 <= len(d.s) && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
		d.i += 2
		return utf16.DecodeRune(r, d.hex4())
	}
	return r
}

func (d *docReader) hex4() rune {
	if d.i+4 > len(d.s) {
		d.err = errBadDoc
		return utf8.RuneError
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	if err != nil {
		d.err = errBadDoc
		return utf8.RuneError
	}
	d.i += 4
	return rune(n)
}
