package commands_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/group"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
	"github.com/eventchat/eventchat/domain/tenant"
	"github.com/eventchat/eventchat/projections"
)

// atOnce runs do n times at once, released together, and returns their
// errors.
func atOnce(n int, do func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			defer GinkgoRecover()
			<-start
			errs[i] = do(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

var _ = Describe("Concurrent changes of one stream", func() {
	const n = 32
	var w *world
	BeforeEach(func() { w = newWorld() })

	typesOf := func(stream string) map[string]int {
		GinkgoHelper()
		recs, err := w.events.ReadStream(ctx, stream, es.Forwards, 0, 10_000)
		Expect(err).NotTo(HaveOccurred())
		out := map[string]int{}
		for _, r := range recs {
			out[r.Type]++
		}
		return out
	}

	It("records every one of a member's parallel feedbacks", func() {
		alice := w.member("alice001")
		ids := make([]string, n)
		errs := atOnce(n, func(i int) error {
			built, err := w.app.BuildFeedback(ctx, alice, commands.BuildFeedback{Type: "bug", Content: fmt.Sprintf("report %d", i)})
			ids[i] = built.ID
			return err
		})
		Expect(errs).To(HaveEach(Not(HaveOccurred())))
		Expect(typesOf(es.Stream("x0001", es.CategoryMember, alice.MemberID))).To(HaveKeyWithValue(member.TypeFeedbackSubmitted, n))
		Expect(ids).To(HaveLen(n))
	})

	It("applies every one of a member's parallel profile changes, one of them last", func() {
		alice := w.member("alice001")
		names := make([]string, n)
		errs := atOnce(n, func(i int) error {
			names[i] = fmt.Sprintf("Alice %02d", i)
			_, err := w.app.ModifyProfile(ctx, alice, commands.ModifyProfile{Name: &names[i]})
			return err
		})
		Expect(errs).To(HaveEach(Not(HaveOccurred())))
		Expect(typesOf(es.Stream("x0001", es.CategoryMember, alice.MemberID))).To(HaveKeyWithValue(member.TypeProfileModified, n))
		w.settle()
		ms, err := w.reads.MembersByID(ctx, projections.Viewer{Tenant: alice.Tenant, Member: alice.MemberID}, []string{alice.MemberID})
		Expect(err).NotTo(HaveOccurred())
		Expect(names).To(ContainElement(ms[alice.MemberID].Name))
	})

	It("keeps every setting a member's devices change at once", func() {
		alice := w.member("alice001")
		large, night, off := personal.FontLarge, "night", false
		changes := []personal.PreferencesChange{{FontSize: &large}, {Background: &night}, {Notifications: &off}, {ReadSync: &off}}
		errs := atOnce(n, func(i int) error {
			_, err := w.app.SetPreferences(ctx, alice, changes[i%len(changes)])
			return err
		})
		Expect(errs).To(HaveEach(Not(HaveOccurred())))
		w.settle()
		got, err := w.app.Preferences(ctx, alice)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(personal.Preferences{FontSize: large, Background: night, Notifications: false, ReadSync: false, ShowMessageTime: true}))
	})

	It("applies every one of an owner's parallel changes of a group", func() {
		owner, friend := w.member("owner001"), w.member("friend01")
		w.befriend(owner, friend)
		created, err := w.app.CreateGroup(ctx, owner, commands.CreateGroup{Name: "Team", MemberIDs: []string{friend.MemberID}})
		Expect(err).NotTo(HaveOccurred())
		errs := atOnce(n, func(i int) error {
			notice := fmt.Sprintf("notice %d", i)
			_, err := w.app.ModifyGroup(ctx, owner, commands.ModifyGroup{GroupID: created.GroupID, Notice: &notice})
			return err
		})
		Expect(errs).To(HaveEach(Not(HaveOccurred())))
		Expect(typesOf(es.Stream("x0001", es.CategoryGroup, created.GroupID))).To(HaveKeyWithValue(group.TypeModified, n))
	})

	It("applies every one of operators' parallel changes of a tenant's settings", func() {
		errs := atOnce(n, func(i int) error {
			_, err := w.app.ConfigureTenant(ctx, commands.Operator{Name: "ops"}, "x0001", map[string]string{"icon": fmt.Sprintf("/icon-%d.png", i)})
			return err
		})
		Expect(errs).To(HaveEach(Not(HaveOccurred())))
		Expect(typesOf(es.Stream("x0001", es.CategoryTenant, "x0001"))).To(HaveKeyWithValue(tenant.TypeSettingsChanged, n))
	})

	It("bans a member logging in on many devices at once, ending every session", func() {
		alice := w.member("alice001")
		var logins, ban []error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer GinkgoRecover()
			logins = atOnce(n, func(int) error {
				_, err := w.app.LoginMember(ctx, commands.Login{Account: "alice001", Password: "pass1234", TenantCode: "x0001"})
				return err
			})
		}()
		go func() {
			defer wg.Done()
			defer GinkgoRecover()
			_, err := w.app.BanMember(ctx, commands.Operator{Name: "ops"}, "x0001", "alice001")
			ban = []error{err}
		}()
		wg.Wait()
		Expect(ban).To(HaveEach(Not(HaveOccurred())))
		for _, err := range logins {
			if err != nil {
				Expect(fault.Is(err, fault.Forbidden)).To(BeTrue(), "got %v", err)
			}
		}
		st, err := w.app.ShowMember(ctx, commands.Operator{Name: "ops"}, "x0001", "alice001")
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Banned).To(BeTrue())
		var m member.Member
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryMember, alice.MemberID), es.Forwards, 0, 10_000)
		Expect(err).NotTo(HaveOccurred())
		for _, r := range recs {
			e, err := catalog.Registry().Decode(r.Type, r.Data)
			Expect(err).NotTo(HaveOccurred())
			m.Apply(e)
		}
		Expect(m.Sessions()).To(BeEmpty(), "no session outlives the ban")
	})

	It("answers a request once when a member's devices race, the others get the domain's refusal", func() {
		alice, bob := w.member("alice001"), w.member("bob00001")
		applied, err := w.app.RequestFriend(ctx, alice, commands.RequestFriend{FriendMemberID: bob.MemberID, Content: "hi"})
		Expect(err).NotTo(HaveOccurred())
		w.settle()
		errs := atOnce(n, func(int) error {
			_, err := w.app.AnswerFriendRequest(ctx, bob, commands.AnswerFriendRequest{ID: applied.ID, Status: "accepted"})
			return err
		})
		answered := 0
		for _, err := range errs {
			if err == nil {
				answered++
				continue
			}
			f, ok := fault.As(err)
			Expect(ok).To(BeTrue(), "got %v", err)
			Expect(f.Kind).To(Equal(fault.Conflict))
			Expect(f.Key).To(Equal(fault.MsgAlreadyProcessed))
		}
		Expect(answered).To(Equal(1))
	})
})
