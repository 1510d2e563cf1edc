package es_test

import (
	"bytes"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/group"
)

// renamed is at version 3: version 2 renamed "nick" to "name", version 3
// split "name" into "first" and "last".
type renamed struct {
	First string `json:"first"`
	Last  string `json:"last"`
}

func (*renamed) EventType() string { return "Renamed" }

func (*renamed) Upcasters() []es.Upcaster {
	return []es.Upcaster{
		func(d []byte) ([]byte, error) { return bytes.Replace(d, []byte(`"nick"`), []byte(`"name"`), 1), nil },
		func(d []byte) ([]byte, error) {
			if !bytes.HasPrefix(d, []byte(`{"name":"Ann Lee"}`)) {
				return nil, errors.New("not Ann Lee")
			}
			return []byte(`{"first":"Ann","last":"Lee"}`), nil
		},
	}
}

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

var _ = Describe("Versioned events", func() {
	r := es.Registry{}.Add(func() es.Event { return &renamed{} })

	It("stores version 1 as the bare type name and later versions with theirs", func() {
		Expect(es.StoredType(&group.Created{})).To(Equal("GroupCreated"))
		Expect(es.StoredType(&renamed{})).To(Equal("Renamed@v3"))
		name, v, err := es.ParseType("Renamed@v3")
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{name, v}).To(Equal([]any{"Renamed", 3}))
		name, v, err = es.ParseType("Renamed")
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{name, v}).To(Equal([]any{"Renamed", 1}))
	})

	It("upcasts each older version through the chain of steps to the current shape", func() {
		for _, stored := range []struct{ typ, data string }{
			{"Renamed", `{"nick":"Ann Lee"}`},
			{"Renamed@v2", `{"name":"Ann Lee"}`},
			{"Renamed@v3", `{"first":"Ann","last":"Lee"}`},
		} {
			e, err := r.Decode(stored.typ, []byte(stored.data))
			Expect(err).NotTo(HaveOccurred(), stored.typ)
			Expect(e).To(Equal(&renamed{First: "Ann", Last: "Lee"}), stored.typ)
		}
	})

	It("refuses a version newer than the code's, a malformed version and a failed step", func() {
		_, err := r.Decode("Renamed@v4", []byte(`{}`))
		Expect(err).To(MatchError(`es: Renamed version 4 is newer than this server's 3`))
		for _, typ := range []string{"Renamed@v", "Renamed@v1", "Renamed@v02", "Renamed@vx"} {
			_, err = r.Decode(typ, []byte(`{}`))
			Expect(err).To(MatchError(`es: bad version in event type "`+typ+`"`), typ)
		}
		_, err = r.Decode("Renamed@v2", []byte(`{"name":"Bob"}`))
		Expect(err).To(MatchError("es: upcast Renamed from version 2: not Ann Lee"))
	})

	It("reads an unmute of GroupMemberMuted version 1, told by until 0, as unmuted", func() {
		r := catalog.Registry()
		for data, want := range map[string]group.MemberMuted{
			`{"member":"2","until":99,"by":"1","at":5}`: {Member: "2", Muted: true, Until: 99, By: "1", At: 5},
			`{"member":"2","until":0,"by":"1","at":6}`:  {Member: "2", By: "1", At: 6},
		} {
			e, err := r.Decode("GroupMemberMuted", []byte(data))
			Expect(err).NotTo(HaveOccurred())
			Expect(*e.(*group.MemberMuted)).To(Equal(want))
		}
		Expect(es.StoredType(&group.MemberMuted{})).To(Equal("GroupMemberMuted@v2"))
	})
})
