package idgen_test

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/adapters/idgen"
	"github.com/eventchat/eventchat/domain/fault"
)

var _ = Describe("snowflake ids", func() {
	It("grow, and carry the node number", func() {
		ids := idgen.New(1023, nil)
		var last int64
		for range 10_000 {
			id, err := ids.Next()
			Expect(err).NotTo(HaveOccurred())
			Expect(id).To(HaveLen(19))
			n, err := strconv.ParseInt(id, 10, 64)
			Expect(err).NotTo(HaveOccurred())
			Expect(n).To(BeNumerically(">", last))
			Expect(n >> 12 & 1023).To(BeEquivalentTo(1023))
			last = n
		}
	})

	It("are refused while the node's hold on its number has ended, and resume once it is renewed", func() {
		var until atomic.Int64
		until.Store(time.Now().Add(time.Hour).UnixNano())
		ids := idgen.New(7, func() time.Time { return time.Unix(0, until.Load()) })
		before, err := ids.Next()
		Expect(err).NotTo(HaveOccurred())

		until.Store(time.Now().UnixNano())
		_, err = ids.Next()
		Expect(err).To(MatchError(ContainSubstring("node number 7 is held only until")))
		Expect(fault.Is(err, fault.Unavailable)).To(BeTrue(), "answered as busy, not as a server error")
		status, body := envelope.FromError(err, "en")
		Expect(status).To(Equal(http.StatusServiceUnavailable))
		Expect(body.Info).To(Equal(fault.MsgBusy))

		until.Store(time.Now().Add(time.Hour).UnixNano())
		after, err := ids.Next()
		Expect(err).NotTo(HaveOccurred())
		Expect(after > before).To(BeTrue())
	})
})
