// Package fault holds the typed failures the domain and the commands return.
// Each edge (REST, websocket) maps a Kind to its status once; Key names the
// user-facing text, which the edge translates.
package fault

import (
	"errors"
	"fmt"
)

// Kind classifies a failure.
type Kind uint8

const (
	Invalid      Kind = iota + 1 // the request is malformed or breaks a rule
	Unauthorized                 // no or bad credentials
	Forbidden                    // the actor may not do this
	NotFound                     // unknown or not visible to the actor
	Conflict                     // the state does not allow it now
	TooLarge                     // a body or field over its limit
	RateLimited                  // too many requests
	Unavailable                  // the server cannot take it now; a retry may succeed
)

// Error is a domain failure. Code is the spec's business code where it names
// one ("30021", "20065"); otherwise the edge derives it from Kind.
type Error struct {
	Kind Kind
	Key  string // message key, also the English text
	Code string
	Args []any // values substituted into the text
}

func (e *Error) Error() string {
	if len(e.Args) > 0 {
		return fmt.Sprintf(e.Key, e.Args...)
	}
	return e.Key
}

// New returns a failure of kind k with message key key.
func New(k Kind, key string, args ...any) *Error { return &Error{Kind: k, Key: key, Args: args} }

// WithCode returns a failure carrying a business code of the spec.
func WithCode(k Kind, code, key string) *Error { return &Error{Kind: k, Key: key, Code: code} }

// As extracts a *Error from err.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Is reports whether err is a failure of kind k.
func Is(err error, k Kind) bool {
	e, ok := As(err)
	return ok && e.Kind == k
}
