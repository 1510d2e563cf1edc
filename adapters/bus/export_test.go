package bus

var (
	PackDeltas   = packDeltas
	UnpackDeltas = unpackDeltas
)
