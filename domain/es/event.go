package es

import (
	"encoding/json"
	"fmt"
)

// Event is a domain event. Its type name is a stored identifier: a constant,
// never derived from the Go type.
type Event interface{ EventType() string }

// Registry decodes stored events by type name.
type Registry map[string]func() Event

// Decode turns a stored payload into its event, or an error for an unknown
// type or a malformed payload.
func (r Registry) Decode(typ string, data []byte) (Event, error) {
	mk, ok := r[typ]
	if !ok {
		return nil, fmt.Errorf("es: unknown event type %q", typ)
	}
	e := mk()
	if err := json.Unmarshal(data, e); err != nil {
		return nil, fmt.Errorf("es: decode %s: %w", typ, err)
	}
	return e, nil
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
