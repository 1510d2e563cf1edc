package es_test

import (
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("CheckAppend", func() {
	const stream = "x0001.chat-1_2"
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.FixedZone("CET", 3600))

	// escaping is metadata whose JSON is much longer than its strings, and
	// much shorter than six times them.
	escaping := es.Metadata{Tenant: "x0001", Actor: strings.Repeat("<&>", 100), CorrelationID: "a\nb\xff", Time: at}

	// sizeOf counts events as EventStoreDB counts them: data, metadata
	// encoded in JSON with the time in UTC, and twice the type.
	sizeOf := func(events ...es.EventData) int {
		size := 0
		for _, e := range events {
			m := e.Metadata
			m.Time = m.Time.UTC()
			meta, err := json.Marshal(m)
			Expect(err).NotTo(HaveOccurred())
			size += len(e.Data) + len(meta) + 2*len(e.Type)
		}
		return size
	}

	It("takes an append of exactly the limit and refuses one a byte over it, its metadata counted as encoded", func() {
		events := []es.EventData{
			{ID: "a", Type: "Sent", Data: []byte(`{"n":1}`), Metadata: escaping},
			{ID: "b", Type: "Sent@v2", Data: []byte(`{"n":22}`), Metadata: escaping},
		}
		size := sizeOf(events...)

		kept, err := es.CheckAppend(stream, events, size)
		Expect(err).NotTo(HaveOccurred())
		Expect(kept).To(Equal(events))

		_, err = es.CheckAppend(stream, events, size-1)
		Expect(err).To(MatchError(es.ErrAppendTooLarge))
	})

	It("counts an id repeated inside the append once, and keeps its first place", func() {
		a := es.EventData{ID: "a", Type: "Sent", Data: []byte(`{"n":1}`), Metadata: escaping}
		b := es.EventData{ID: "b", Type: "Sent", Data: []byte(`{"n":2}`), Metadata: escaping}
		again := a
		again.Data = []byte(`{"n":"again"}`)

		kept, err := es.CheckAppend(stream, []es.EventData{a, b, again}, sizeOf(a, b))
		Expect(err).NotTo(HaveOccurred())
		Expect(kept).To(Equal([]es.EventData{a, b}))
	})

	It("refuses a time JSON cannot encode", func() {
		e := es.EventData{ID: "a", Type: "Sent", Data: []byte(`{}`), Metadata: es.Metadata{Tenant: "x0001", Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
		_, err := es.CheckAppend(stream, []es.EventData{e}, es.MaxAppendSize)
		Expect(err).To(MatchError(ContainSubstring("event 0: time")))
	})

	DescribeTable("refuses an append that is not one",
		func(stream string, events []es.EventData, reason string) {
			_, err := es.CheckAppend(stream, events, es.MaxAppendSize)
			Expect(err).To(MatchError(ContainSubstring(reason)))
		},
		Entry("an empty stream name", "", []es.EventData{{ID: "a", Type: "Sent"}}, "empty stream name"),
		Entry("a stream name without a tenant", "chat-1", []es.EventData{{ID: "a", Type: "Sent"}}, "has no tenant"),
		Entry("no events", stream, nil, "no events"),
		Entry("an event without an id", stream, []es.EventData{{ID: "a", Type: "Sent"}, {Type: "Sent"}}, "event 1 has no id"),
		Entry("an event without a type", stream, []es.EventData{{ID: "a"}}, "event 0 has no type"),
	)
})
