// Package envelope maps results and failures to the spec's response envelope
// {code, data, info}, once for every edge.
package envelope

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Body is the spec's envelope.
type Body struct {
	Code string `json:"code"`
	Data any    `json:"data"`
	Info string `json:"info"`
}

// OK wraps data in a success envelope.
func OK(data any, lang string) Body {
	return Body{Code: "200", Data: data, Info: Translate(lang, "success")}
}

// Status maps a failure kind to its HTTP status.
func Status(k fault.Kind) int {
	switch k {
	case fault.Invalid:
		return http.StatusBadRequest
	case fault.Unauthorized:
		return http.StatusUnauthorized
	case fault.Forbidden:
		return http.StatusForbidden
	case fault.NotFound:
		return http.StatusNotFound
	case fault.Conflict:
		return http.StatusConflict
	case fault.TooLarge:
		return http.StatusRequestEntityTooLarge
	case fault.RateLimited:
		return http.StatusTooManyRequests
	case fault.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// FromError maps an error to HTTP status and envelope. A lost optimistic
// concurrency race that escaped its handler is a conflict the user may retry;
// any other error that is not a domain failure is an internal one: its text
// never reaches the client.
func FromError(err error, lang string) (int, Body) {
	if errors.Is(err, es.ErrConcurrency) {
		err = fault.New(fault.Conflict, fault.MsgConcurrentChange)
	}
	f, ok := fault.As(err)
	if !ok {
		return http.StatusInternalServerError, Body{Code: "500", Info: Translate(lang, msgInternal)}
	}
	status := Status(f.Kind)
	code := f.Code
	if code == "" {
		code = strconv.Itoa(status)
	}
	return status, Body{Code: code, Info: Translatef(lang, f.Key, f.Args...)}
}

const msgInternal = "server error, try later"
