package storetest

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

func validationSpecs(x *fixture) {
	Describe("bad input", func() {
		DescribeTable("is refused with an error, appending nothing",
			func(stream func() string, events func() []es.EventData) {
				head := x.head()
				_, err := x.s().Append(x.ctx, stream(), es.Any, events())
				Expect(err).To(HaveOccurred())
				Expect(errors.Is(err, es.ErrConcurrency)).To(BeFalse())
				Expect(x.head()).To(Equal(head))
				Expect(x.readStream(x.stream("ok"), es.Forwards, 0, 10)).To(BeEmpty())
			},
			Entry("an empty stream name",
				func() string { return "" },
				func() []es.EventData { return x.events(1, "e") }),
			Entry("a stream name without tenant",
				func() string { return "chat-1" },
				func() []es.EventData { return x.events(1, "e") }),
			Entry("a stream name without id",
				func() string { return x.tenant + ".chat-" },
				func() []es.EventData { return x.events(1, "e") }),
			Entry("no events",
				func() string { return x.stream("ok") },
				func() []es.EventData { return nil }),
			Entry("an event without id",
				func() string { return x.stream("ok") },
				func() []es.EventData {
					evs := x.events(2, "e")
					evs[1].ID = ""
					return evs
				}),
			Entry("an event without type",
				func() string { return x.stream("ok") },
				func() []es.EventData {
					evs := x.events(2, "e")
					evs[1].Type = ""
					return evs
				}),
		)
	})
}
