package sealing

import (
	"encoding/json"
	"slices"
	"strings"
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
// values of the members named in names, in the order they appear: a
// top-level member by its name, a member of a nested object by the path
// of names joined by dots ("favourite.content"). ok is false when data is
// not an object this scanner reads (the caller leaves it to the decoder);
// a member of another type is skipped.
func stringFields(data []byte, names []string) (found []field, ok bool) {
	found, end, ok := objectFields(data, skipSpace(data, 0), names, "", nil)
	return found, ok && skipSpace(data, end) == len(data)
}

// objectFields scans the object starting at data[i], whose members' paths
// begin with path, appending the named strings to found; end is the index
// after the object.
func objectFields(data []byte, i int, names []string, path string, found []field) (_ []field, end int, ok bool) {
	if i >= len(data) || data[i] != '{' {
		return nil, 0, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return found, i + 1, true
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, 0, false
		}
		keyEnd, escaped := stringEnd(data, i)
		if keyEnd < 0 {
			return nil, 0, false
		}
		key := path + string(data[i+1:keyEnd-1])
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return nil, 0, false
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return nil, 0, false
		}
		var end int
		switch {
		case data[i] == '"':
			var valueEscaped bool
			if end, valueEscaped = stringEnd(data, i); end < 0 {
				return nil, 0, false
			}
			if escaped {
				return nil, 0, false // a key spelled with escapes: read by the decoder
			}
			if j := slices.Index(names, key); j >= 0 {
				found = append(found, field{name: names[j], start: i, end: end, escaped: valueEscaped})
			}
		case data[i] == '{' && !escaped && nests(names, key+"."):
			if found, end, ok = objectFields(data, i, names, key+".", found); !ok {
				return nil, 0, false
			}
		default:
			if end = valueEnd(data, i); end < 0 {
				return nil, 0, false
			}
		}
		i = skipSpace(data, end)
		if i >= len(data) {
			return nil, 0, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return found, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// nests reports whether a name is a path inside the object at prefix.
func nests(names []string, prefix string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, prefix) })
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
