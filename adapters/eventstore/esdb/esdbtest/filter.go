package esdbtest

import (
	"fmt"
	"regexp"
	"strings"

	api "github.com/EventStore/EventStore-Client-Go/v4/protos/streams"

	"github.com/eventchat/eventchat/domain/es"
)

// filter says whether a read or subscription sends an event.
type filter func(es.RecordedEvent) bool

// newFilter builds the filter of a request: on the stream name or on the
// event type, by a regular expression or by prefixes; nil keeps everything.
func newFilter(o *api.ReadReq_Options_FilterOptions) (filter, error) {
	if o == nil {
		return func(es.RecordedEvent) bool { return true }, nil
	}
	field := func(e es.RecordedEvent) string { return e.Stream }
	expr := o.GetStreamIdentifier()
	if expr == nil {
		expr = o.GetEventType()
		field = func(e es.RecordedEvent) string { return e.Type }
	}
	if expr == nil {
		return nil, fmt.Errorf("read: filter on neither stream nor event type")
	}
	if expr.GetRegex() != "" {
		re, err := regexp.Compile(expr.GetRegex())
		if err != nil {
			return nil, fmt.Errorf("read: filter: %w", err)
		}
		return func(e es.RecordedEvent) bool { return re.MatchString(field(e)) }, nil
	}
	prefixes := expr.GetPrefix()
	return func(e es.RecordedEvent) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(field(e), p) {
				return true
			}
		}
		return false
	}, nil
}
