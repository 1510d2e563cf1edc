package es

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Event is a domain event. Its type name is a stored identifier: a constant,
// never derived from the Go type.
type Event interface{ EventType() string }

// Upcaster turns the JSON payload of one version of an event type into that
// of the next version.
type Upcaster func(data []byte) ([]byte, error)

// Versioned is an event whose shape has changed since its first version.
// Upcasters()[i] turns version i+1 into version i+2, so the current version
// is len(Upcasters())+1; an event that is not Versioned is at version 1.
type Versioned interface {
	Event
	Upcasters() []Upcaster
}

// versionSep joins a type name and its version in a stored type: version 1
// is stored as the bare name, which every event was before versions
// existed, so the logs of that time decode unchanged.
const versionSep = "@v"

// Version is the current version of e's type.
func Version(e Event) int {
	if v, ok := e.(Versioned); ok {
		return len(v.Upcasters()) + 1
	}
	return 1
}

// StoredType is the type an append stores for e: its name, with its
// version unless that is 1.
func StoredType(e Event) string {
	if v := Version(e); v > 1 {
		return e.EventType() + versionSep + strconv.Itoa(v)
	}
	return e.EventType()
}

// ParseType splits a stored type into its name and version.
func ParseType(stored string) (name string, version int, err error) {
	name, v, found := strings.Cut(stored, versionSep)
	if !found {
		return stored, 1, nil
	}
	version, err = strconv.Atoi(v)
	if err != nil || version < 2 || strconv.Itoa(version) != v {
		return "", 0, fmt.Errorf("es: bad version in event type %q", stored)
	}
	return name, version, nil
}

// QuickDecoder is an event that reads the JSON json.Marshal writes of it
// without reflection. DecodeQuick reports false, having changed nothing,
// for any other input, which Decode then leaves to encoding/json; what it
// reads, it reads as encoding/json would.
type QuickDecoder interface {
	Event
	DecodeQuick(data []byte) bool
}

// Registry decodes stored events by type name.
type Registry map[string]func() Event

// Decode turns a stored payload of a stored type into its event in its
// current shape, upcasting older versions; an unknown type, a version newer
// than the code's or a malformed payload is an error.
func (r Registry) Decode(stored string, data []byte) (Event, error) {
	typ, version, err := ParseType(stored)
	if err != nil {
		return nil, err
	}
	mk, ok := r[typ]
	if !ok {
		return nil, fmt.Errorf("es: unknown event type %q", typ)
	}
	e := mk()
	if data, err = upcast(e, typ, version, data); err != nil {
		return nil, err
	}
	if q, ok := e.(QuickDecoder); ok && q.DecodeQuick(data) {
		return e, nil
	}
	if err := json.Unmarshal(data, e); err != nil {
		return nil, fmt.Errorf("es: decode %s: %w", stored, err)
	}
	return e, nil
}

func upcast(e Event, typ string, version int, data []byte) ([]byte, error) {
	current := Version(e)
	if version > current {
		return nil, fmt.Errorf("es: %s version %d is newer than this server's %d", typ, version, current)
	}
	for v := version; v < current; v++ {
		var err error
		if data, err = e.(Versioned).Upcasters()[v-1](data); err != nil {
			return nil, fmt.Errorf("es: upcast %s from version %d: %w", typ, v, err)
		}
	}
	return data, nil
}

// Add registers the events made by mks, panicking on a duplicate type name
// since that is a programming error found at start-up.
func (r Registry) Add(mks ...func() Event) Registry {
	for _, mk := range mks {
		t := mk().EventType()
		if _, dup := r[t]; dup {
			panic("es: event type registered twice: " + t)
		}
		r[t] = mk
	}
	return r
}
