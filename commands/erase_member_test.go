package commands_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/adapters/blobstore"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
)

var _ = Describe("Claims named by a keyed hash, and erasure", func() {
	var w *world
	ctx := context.Background()
	BeforeEach(func() { w = newWorld() })

	register := func(phone, account string) error {
		if err := w.app.SendSMSCode(ctx, "x0001", phone, "register"); err != nil {
			return err
		}
		_, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: phone, SMSCode: w.lastCode(phone), Account: account, Password: "pass1234", TenantCode: "x0001"})
		return err
	}
	login := func(account string) error {
		_, err := w.app.LoginMember(ctx, commands.Login{Account: account, Password: "pass1234", TenantCode: "x0001"})
		return err
	}
	streamsOf := func() []string {
		GinkgoHelper()
		recs, err := w.events.ReadAll(ctx, 0, 10000)
		Expect(err).NotTo(HaveOccurred())
		var out []string
		for _, r := range recs {
			out = append(out, r.Stream)
		}
		return out
	}

	It("names no stream by a phone or an account, and logs in by either", func() {
		Expect(register("13955500001", "hashed01")).To(Succeed())
		Expect(streamsOf()).NotTo(ContainElement(ContainSubstring("13955500001")))
		Expect(streamsOf()).NotTo(ContainElement(ContainSubstring("hashed01")))
		Expect(login("hashed01")).To(Succeed())
		Expect(login("13955500001")).To(Succeed())
		expectFault(register("13955500001", "hashed02"), fault.Conflict, fault.MsgPhoneInUse)
	})

	It("keeps the claims written before, by the value itself: logins find them and a second registration is refused", func() {
		const id, phone, account = "7000000000000000001", "13955500002", "legacy01"
		p := commands.Principal{Tenant: "x0001", MemberID: id}
		appendOld := func(stream string, e es.Event) {
			GinkgoHelper()
			data, err := json.Marshal(e)
			Expect(err).NotTo(HaveOccurred())
			_, err = w.events.Append(ctx, stream, es.Any, []es.EventData{{ID: w.app.NewUUID(), Type: es.StoredType(e), Data: data,
				Metadata: es.Metadata{Tenant: p.Tenant, Actor: id, Time: time.Now()}}})
			Expect(err).NotTo(HaveOccurred())
		}
		appendOld(es.Stream("x0001", es.CategoryPhone, phone), &member.PhoneReserved{MemberID: id})
		appendOld(es.Stream("x0001", es.CategoryAccount, account), &member.AccountReserved{MemberID: id})
		appendOld(es.Stream("x0001", es.CategoryMember, id), &member.Registered{MemberID: id, Phone: phone, Account: account,
			Name: account, PasswordHash: "h:pass1234", Level: member.LevelNormal})

		Expect(login(account)).To(Succeed())
		Expect(login(phone)).To(Succeed())
		expectFault(register(phone, "legacy02"), fault.Conflict, fault.MsgPhoneInUse)
		expectFault(register("13955500003", account), fault.Conflict, fault.MsgAccountInUse)
	})

	It("releases an erased member's phone and account for others, and refuses its logins", func() {
		Expect(register("13955500004", "erased01")).To(Succeed())
		op := commands.Operator{Name: "ops"}
		erased, err := w.app.EraseMember(ctx, op, "x0001", "erased01", "ticket 9")
		Expect(err).NotTo(HaveOccurred())
		Expect(erased.Erased).To(BeTrue())
		Expect(login("erased01")).To(MatchError(login("nobody01")), "refused as an unknown account")
		again, err := w.app.EraseMember(ctx, op, "x0001", erased.MemberID, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Position).To(BeZero())

		w.advance(time.Minute) // the phone's next code
		Expect(register("13955500004", "erased02")).To(Succeed())
		Expect(register("13955500005", "erased01")).To(Succeed())
		Expect(login("erased01")).To(Succeed())

		_, err = w.app.EraseMember(ctx, op, "x0001", "erased02", strings.Repeat("x", commands.MaxErasureRequestLen+1))
		expectFault(err, fault.Invalid, commands.MsgErasureRequestTooLong)
	})

	It("releases the claims before it records the erasure, and destroys at a node's next start the key of an erasure that stopped right after it", func() {
		Expect(register("13955500031", "cutshort")).To(Succeed())
		in, err := w.app.LoginMember(ctx, commands.Login{Account: "cutshort", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		id := in.Principal.MemberID
		_, err = w.app.EraseMember(ctx, commands.Operator{Name: "ops"}, "x0001", "cutshort", "")
		Expect(err).NotTo(HaveOccurred())
		recs, err := w.events.ReadAll(ctx, 0, 10000)
		Expect(err).NotTo(HaveOccurred())
		var order []string
		for _, r := range recs {
			if name, _, _ := es.ParseType(r.Type); name == member.TypeErased || strings.HasSuffix(name, "Released") {
				order = append(order, name)
			}
		}
		Expect(order).To(Equal([]string{"AccountReleased", "PhoneReleased", member.TypeErased}))

		By("an erasure cut short after MemberErased: the key lives")
		Expect(register("13955500032", "cutshrt2")).To(Succeed())
		in, err = w.app.LoginMember(ctx, commands.Login{Account: "cutshrt2", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		id = in.Principal.MemberID
		e := &member.Erased{By: "operator:ops", Request: "ticket 31", At: time.Now().UnixMilli()}
		data, err := json.Marshal(e)
		Expect(err).NotTo(HaveOccurred())
		_, err = w.events.Append(ctx, es.Stream("x0001", es.CategoryMember, id), es.Any, []es.EventData{{ID: w.app.NewUUID(), Type: es.StoredType(e), Data: data,
			Metadata: es.Metadata{Tenant: "x0001", Actor: "operator:ops", Time: time.Now()}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(w.sealer.KeyLives(ctx, "x0001", id)).To(BeTrue())

		app := w.newApp(4)
		sweep, stop := context.WithCancel(ctx)
		done := make(chan struct{}, 2)
		go func() { defer func() { done <- struct{}{} }(); _ = app.Follow(sweep, w.events) }()
		go func() { defer func() { done <- struct{}{} }(); _ = app.SweepErasures(sweep) }()
		DeferCleanup(func() { stop(); <-done; <-done })
		Eventually(func() (bool, error) { return w.sealer.KeyLives(ctx, "x0001", id) }, 10*time.Second, 20*time.Millisecond).Should(BeFalse())
	})

	registerID := func(phone, account string) string {
		GinkgoHelper()
		Expect(w.app.SendSMSCode(ctx, "x0001", phone, "register")).To(Succeed())
		r, err := w.app.RegisterMember(ctx, commands.Register{
			Phone: phone, SMSCode: w.lastCode(phone), Account: account, Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		return r.MemberID
	}

	Describe("the member's uploads", func() {
		var store *blobstore.Store
		var zeb, bob string
		var zebs, bobs []string
		save := func(uploader string) string {
			GinkgoHelper()
			name, _, err := store.Save(ctx, "x0001", uploader, "txt", strings.NewReader("upload of "+uploader))
			Expect(err).NotTo(HaveOccurred())
			return name
		}
		stored := func(names []string) int {
			GinkgoHelper()
			n := 0
			for _, name := range names {
				_, found, err := store.Size(ctx, "x0001", name)
				Expect(err).NotTo(HaveOccurred())
				if found {
					n++
				}
			}
			return n
		}
		BeforeEach(func() {
			var err error
			store, err = blobstore.New(filepath.Join(GinkgoT().TempDir(), blobstore.Dir))
			Expect(err).NotTo(HaveOccurred())
			zeb, bob = registerID("13955500011", "zebblob1"), registerID("13955500012", "bobblob1")
			zebs, bobs = []string{save(zeb), save(zeb), save(zeb)}, []string{save(bob)}
		})

		It("are deleted by the erasure, again without harm, and the others' stay", func() {
			app := w.newApp(2)
			app.Uploads = store
			op := commands.Operator{Name: "ops"}
			_, err := app.EraseMember(ctx, op, "x0001", "zebblob1", "")
			Expect(err).NotTo(HaveOccurred())
			Expect(stored(zebs)).To(BeZero())
			Expect(stored(bobs)).To(Equal(1))
			_, err = app.EraseMember(ctx, op, "x0001", zeb, "")
			Expect(err).NotTo(HaveOccurred())
			Expect(stored(bobs)).To(Equal(1))
		})

		It("are deleted at a node's next start when the erasure stopped before deleting them", func() {
			_, err := w.app.EraseMember(ctx, commands.Operator{Name: "ops"}, "x0001", "zebblob1", "")
			Expect(err).NotTo(HaveOccurred(), "an application without the blob store deletes nothing, as one cut short")
			late := save(zeb) // an upload in flight during the erasure
			Expect(stored(append(zebs, late))).To(Equal(4))

			app := w.newApp(3)
			app.Uploads = store
			sweep, stop := context.WithCancel(ctx)
			done := make(chan struct{}, 2)
			go func() { defer func() { done <- struct{}{} }(); _ = app.Follow(sweep, w.events) }()
			go func() { defer func() { done <- struct{}{} }(); _ = app.SweepErasures(sweep) }()
			DeferCleanup(func() { stop(); <-done; <-done })
			Eventually(func() int { return stored(append(zebs, late)) }, 10*time.Second, 20*time.Millisecond).Should(BeZero())
			Expect(stored(bobs)).To(Equal(1))
		})
	})

	It("counts a wrong password of the member's own deletion as a login's, and refuses it while logins are locked out", func() {
		id := registerID("13955500021", "lockera1")
		in, err := w.app.LoginMember(ctx, commands.Login{Account: "lockera1", Password: "pass1234", TenantCode: "x0001"})
		Expect(err).NotTo(HaveOccurred())
		p := in.Principal
		for i := 0; i < member.MaxLoginFailures/2; i++ {
			_, err := w.app.LoginMember(ctx, commands.Login{Account: "lockera1", Password: "wrong999", TenantCode: "x0001"})
			expectFault(err, fault.Invalid, fault.MsgWrongPassword)
		}
		for i := member.MaxLoginFailures / 2; i < member.MaxLoginFailures; i++ {
			_, err := w.app.EraseAccount(ctx, p, commands.EraseAccount{Password: "wrong999"})
			expectFault(err, fault.Invalid, fault.MsgWrongPassword)
		}
		_, err = w.app.EraseAccount(ctx, p, commands.EraseAccount{Password: "pass1234"})
		expectFault(err, fault.RateLimited, fault.MsgTooManyAttempts)
		_, err = w.app.LoginMember(ctx, commands.Login{Account: "lockera1", Password: "pass1234", TenantCode: "x0001"})
		expectFault(err, fault.RateLimited, fault.MsgTooManyAttempts)
		var m member.Member
		recs, err := w.events.ReadStream(ctx, es.Stream("x0001", es.CategoryMember, id), es.Forwards, 0, 1000)
		Expect(err).NotTo(HaveOccurred())
		for _, r := range recs {
			e, err := catalog.Registry().Decode(r.Type, r.Data)
			Expect(err).NotTo(HaveOccurred())
			m.Apply(e)
		}
		Expect(m.IsErased()).To(BeFalse(), "nothing was erased")

		w.advance(member.LoginLockWindow)
		written, err := w.app.EraseAccount(ctx, p, commands.EraseAccount{Password: "pass1234"})
		Expect(err).NotTo(HaveOccurred())
		Expect(written.Position).NotTo(BeZero())
	})
})
