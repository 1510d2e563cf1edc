package wire

import (
	"encoding/binary"

	"github.com/gobwas/ws"
)

// AppendHeader appends the encoding of a final frame header to dst.
func AppendHeader(dst []byte, op ws.OpCode, length int, mask *[4]byte) []byte {
	b0 := 0x80 | byte(op)
	var maskBit byte
	if mask != nil {
		maskBit = 0x80
	}
	switch {
	case length < 126:
		dst = append(dst, b0, maskBit|byte(length))
	case length <= 0xffff:
		dst = append(dst, b0, maskBit|126)
		dst = binary.BigEndian.AppendUint16(dst, uint16(length))
	default:
		dst = append(dst, b0, maskBit|127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(length))
	}
	if mask != nil {
		dst = append(dst, mask[:]...)
	}
	return dst
}
