package commands_test

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/commands"
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
})
