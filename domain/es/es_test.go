package es_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("Stream names", func() {
	It("round-trips tenant, category and id", func() {
		s := es.Stream("x0001", es.CategoryChat, "1_2")
		Expect(s).To(Equal("x0001.chat-1_2"))
		n, err := es.ParseStream(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(es.StreamName{Tenant: "x0001", Category: "chat", ID: "1_2"}))
	})

	It("keeps dashes of the id in the id", func() {
		n, err := es.ParseStream("x0001.sms-138-0013")
		Expect(err).NotTo(HaveOccurred())
		Expect(n.ID).To(Equal("138-0013"))
	})

	DescribeTable("refuses malformed names",
		func(s string) {
			_, err := es.ParseStream(s)
			Expect(err).To(HaveOccurred())
		},
		Entry("no tenant", "chat-1"), Entry("empty tenant", ".chat-1"),
		Entry("no category", "x0001.-1"), Entry("no id", "x0001.chat-"), Entry("no dash", "x0001.chat"),
	)
})

var _ = Describe("Expected revisions", func() {
	DescribeTable("Check",
		func(e es.ExpectedRevision, current uint64, exists, want bool) {
			Expect(e.Check(current, exists)).To(Equal(want))
		},
		Entry("any, empty", es.Any, uint64(0), false, true),
		Entry("any, existing", es.Any, uint64(5), true, true),
		Entry("no stream, empty", es.NoStream, uint64(0), false, true),
		Entry("no stream, existing", es.NoStream, uint64(0), true, false),
		Entry("exists, empty", es.StreamExists, uint64(0), false, false),
		Entry("exists, existing", es.StreamExists, uint64(3), true, true),
		Entry("exact match", es.Exact(3), uint64(3), true, true),
		Entry("exact mismatch", es.Exact(3), uint64(4), true, false),
		Entry("exact 0 on empty", es.Exact(0), uint64(0), false, false),
	)
})

var _ = Describe("The event catalog", func() {
	It("decodes every registered type and refuses unknown ones", func() {
		r := catalog.Registry()
		for typ := range r {
			e, err := r.Decode(typ, []byte(`{}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(e.EventType()).To(Equal(typ))
		}
		_, err := r.Decode("Nope", []byte(`{}`))
		Expect(err).To(HaveOccurred())
		_, err = r.Decode("MessageSent", []byte(`{`))
		Expect(err).To(HaveOccurred())
	})
})
