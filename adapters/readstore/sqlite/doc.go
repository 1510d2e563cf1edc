package sqliteread

import (
	"strconv"
	"strings"

	"github.com/eventchat/eventchat/projections"
)

// The doc column of a message holds, as one JSON object, the fields no
// query filters on. SQLite's JSON functions can read it (doc ->> '$.from'),
// but decoding it here is several times cheaper.

// appendDoc appends the doc of m to b.
func appendDoc(b []byte, m *projections.Message) []byte {
	b = append(b, `{"uuid":`...)
	b = appendJSONString(b, m.UUID)
	b = append(b, `,"tenant":`...)
	b = appendJSONString(b, m.Tenant)
	b = append(b, `,"position":`...)
	b = strconv.AppendInt(b, int64(m.Position), 10)
	b = append(b, `,"chatType":`...)
	b = appendJSONString(b, m.ChatType)
	b = append(b, `,"from":`...)
	b = appendJSONString(b, m.From)
	b = append(b, `,"groupId":`...)
	b = appendJSONString(b, m.GroupID)
	b = append(b, `,"msgType":`...)
	b = appendJSONString(b, m.MsgType)
	b = append(b, `,"serverReceiveTime":`...)
	b = strconv.AppendInt(b, m.ServerReceiveTime, 10)
	// The fields of the message life, written only when set; id lists are
	// comma-separated (ids hold no comma).
	for _, f := range [...]struct {
		key string
		val string
	}{
		{"parent", m.ParentMessageID}, {"fwdBatchId", m.ForwardBatchID}, {"fwdBatch", strings.Join(m.ForwardBatch, ",")},
		{"fwdFrom", m.ForwardFrom}, {"fwdType", m.ForwardType}, {"hiddenFor", strings.Join(m.HiddenFor, ",")},
		{"opType", m.OperationType}, {"operatorId", m.OperatorID}, {"targetId", m.TargetID},
	} {
		if f.val != "" {
			b = append(b, `,"`+f.key+`":`...)
			b = appendJSONString(b, f.val)
		}
	}
	for _, f := range [...]struct {
		key string
		val int64
	}{{"editTime", m.EditTime}, {"recallTime", m.RecallTime}, {"deleted", boolInt(m.Deleted)}} {
		if f.val != 0 {
			b = append(b, `,"`+f.key+`":`...)
			b = strconv.AppendInt(b, f.val, 10)
		}
	}
	return append(b, '}')
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// appendJSONString appends s as a JSON string. Bytes that are not valid
// UTF-8 are kept as they are: SQLite's JSON functions return them intact.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
