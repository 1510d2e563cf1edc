package sealing

import (
	"encoding/json"
	"slices"
)

// field is a top-level string value of a JSON object: the span of its
// quoted text in the object.
type field struct {
	name       string
	start, end int
	escaped    bool // the text holds an escape
}

// value is f's string in data.
func (f field) value(data []byte) (string, bool) {
	if !f.escaped {
		return string(data[f.start+1 : f.end-1]), true
	}
	var v string
	return v, json.Unmarshal(data[f.start:f.end], &v) == nil
}

// stringFields finds, in one pass over the JSON object data, the string
// values of the top-level members named in names, in the order they
// appear. ok is false when data is not an object this scanner reads (the
// caller leaves it to the decoder); a member of another type is skipped.
func stringFields(data []byte, names []string) (found []field, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil, true
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		keyEnd, escaped := stringEnd(data, i)
		if keyEnd < 0 {
			return nil, false
		}
		key := data[i+1 : keyEnd-1]
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return nil, false
		}
		var end int
		if data[i] == '"' {
			var valueEscaped bool
			if end, valueEscaped = stringEnd(data, i); end < 0 {
				return nil, false
			}
			if escaped {
				return nil, false // a key spelled with escapes: read by the decoder
			}
			if j := slices.Index(names, string(key)); j >= 0 {
				found = append(found, field{name: names[j], start: i, end: end, escaped: valueEscaped})
			}
		} else if end = valueEnd(data, i); end < 0 {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return found, skipSpace(data, i+1) == len(data)
		default:
			return nil, false
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the string starting at data[i] (a
// quote), -1 when it does not end, and whether it holds an escape.
func stringEnd(data []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, escaped
}

// valueEnd returns the index after the value that is not a string
// starting at data[i]: an object, an array, a number or a literal; -1 when
// it does not end.
func valueEnd(data []byte, i int) int {
	depth := 0
	for j := i; j < len(data); j++ {
		switch c := data[j]; c {
		case '"':
			end, _ := stringEnd(data, j)
			if end < 0 {
				return -1
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			if depth--; depth == 0 {
				return j + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return j
			}
		}
	}
	if depth == 0 {
		return len(data)
	}
	return -1
}
