package main

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// The double numbers the log as EventStoreDB does, by byte offsets with
// gaps, and refuses positions that are no record boundary: whatever the
// server computed on positions would show here.
var _ = Describe("Positions on the production profile", func() {
	var (
		s            *testServer
		op           member
		alice, bob   member
		early, later []sendResult
		cut          time.Time
	)

	BeforeEach(func() {
		profile := startProductionProfile()
		s, _ = profile.node("node-1")
		op = s.operator()
		alice, bob = s.register("posalic1"), s.register("posbob01")
		s.befriend(alice, bob)
		early, later = nil, nil
		for i := range 3 {
			early = append(early, s.send(alice, bob, fmt.Sprint("pos-early-", i), fmt.Sprint("early ", i)))
		}
		time.Sleep(20 * time.Millisecond) // the events' times are in milliseconds
		cut = time.Now()
		time.Sleep(20 * time.Millisecond)
		for i := range 3 {
			later = append(later, s.send(alice, bob, fmt.Sprint("pos-later-", i), fmt.Sprint("later ", i)))
		}
	})

	It("are byte offsets with gaps, as EventStoreDB gives them", func() {
		all := append(append([]sendResult{}, early...), later...)
		for i := 1; i < len(all); i++ {
			Expect(all[i].Position).To(BeNumerically(">", all[i-1].Position+1), "no gap between sends %d and %d", i-1, i)
		}
	})

	It("give the projections' status: the head event's time and no projector behind once all is folded", func() {
		last := later[len(later)-1].Position
		Eventually(func() uint64 { return s.projectionStatus().Position }).Should(BeNumerically(">=", last))
		r := s.projectionStatus()
		Expect(r.Head).To(BeNumerically(">=", last))
		Expect(r.HeadTime).To(BeTemporally("~", time.Now(), time.Minute))
		Expect(r.HeadTime).To(BeTemporally(">=", cut))
		Expect(r.Projector).To(HaveLen(len(projections.All()) + len(projections.Trailing())))
		for _, p := range r.Projector {
			Expect(p.Checkpoint).To(Equal(r.Head), p.Name)
			Expect(p.Behind).To(BeFalse(), p.Name)
			Expect(p.LagSeconds).To(BeZero(), p.Name)
			Expect(p.LastError).To(BeEmpty(), p.Name)
		}
	})

	It("replay a tenant as it stood at a time, up to the last event before it", func() {
		var r projections.Replay
		s.ok("POST", "/v1/admin/audit/replays", op.Token, map[string]any{"tenant": "x0001", "time": cut.UTC().Format(time.RFC3339Nano)}, &r)
		Eventually(func() string {
			s.ok("GET", "/v1/admin/audit/replays/"+r.ID, op.Token, nil, &r)
			return r.State
		}).Should(Equal(projections.ReplayDone), r.Error)
		Expect(r.Position).To(Equal(early[len(early)-1].Position))

		var history []struct{ Content string }
		s.ok("GET", "/v1/admin/audit/replays/"+r.ID+"/history?memberId="+alice.ID+"&friendId="+bob.ID, op.Token, nil, &history)
		var contents []string
		for _, m := range history {
			contents = append(contents, m.Content)
		}
		Expect(contents).To(ConsistOf("early 0", "early 1", "early 2"))
	})

	It("page the audit history by the positions the server gave, and refuse one it never gave as bad input", func() {
		var page commands.AuditPage
		s.ok("GET", fmt.Sprintf("/v1/admin/audit/events?tenant=x0001&type=MessageSent&after=%d", early[len(early)-1].Position), op.Token, nil, &page)
		Expect(page.Events).To(HaveLen(3))
		Expect(page.Events[0].Position).To(Equal(later[0].Position))

		code, env := s.call("GET", fmt.Sprintf("/v1/admin/audit/events?tenant=x0001&after=%d", early[0].Position+1), op.Token, nil)
		Expect(code).To(Equal(http.StatusBadRequest), env.Info)
		Expect(env.Info).To(Equal("after is not a position of the log: pass one a page or an event gave"))
	})
})
