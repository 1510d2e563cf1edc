package notice_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/notice"
)

var now = time.UnixMilli(1_800_000_000_000)

var _ = Describe("notice ids", func() {
	It("are 19 digits, the same for the same event and member, different for another member", func() {
		a := notice.ID("0190-event", "1866")
		Expect(a).To(MatchRegexp(`^[1-9][0-9]{18}$`))
		Expect(notice.ID("0190-event", "1866")).To(Equal(a))
		Expect(notice.ID("0190-event", "1867")).NotTo(Equal(a))
		Expect(notice.ID("0191-event", "1866")).NotTo(Equal(a))
	})
})

var _ = Describe("tabs", func() {
	DescribeTable("a kind's tab", func(k notice.Kind, tab notice.Tab) {
		Expect(notice.TabOf(k)).To(Equal(tab))
	},
		Entry("friend request", notice.FriendRequest, notice.TabFriends),
		Entry("accepted", notice.FriendAccepted, notice.TabFriends),
		Entry("refused", notice.FriendRefused, notice.TabFriends),
		Entry("group invite", notice.GroupInvite, notice.TabGroups),
		Entry("group owner", notice.GroupOwner, notice.TabGroups),
		Entry("unknown", notice.Kind("Verification"), notice.TabSystem),
	)

	It("parses the four tabs, all when empty, and refuses others", func() {
		for _, s := range []string{"all", "friends", "system", "groups"} {
			Expect(notice.ParseTab(s)).To(Equal(notice.Tab(s)))
		}
		Expect(notice.ParseTab("")).To(Equal(notice.TabAll))
		_, err := notice.ParseTab("Friends")
		Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
	})
})

var _ = Describe("deciding", func() {
	DescribeTable("bad ids are refused",
		func(ids []string, msg string) {
			_, err := notice.Read("1", ids, map[string]bool{}, now)
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
			Expect(err.Error()).To(ContainSubstring(msg))
			_, err = notice.Delete("1", ids, now)
			Expect(err.Error()).To(ContainSubstring(msg))
		},
		Entry("none", nil, fault.MsgNoticesNone),
		Entry("empty id", []string{""}, fault.MsgNoticeIDInvalid),
		Entry("not digits", []string{"12a"}, fault.MsgNoticeIDInvalid),
		Entry("too long", []string{strings.Repeat("1", 21)}, fault.MsgNoticeIDInvalid),
		Entry("too many", strings.Split(strings.Repeat("1,", 100)+"1", ","), fault.MsgNoticesTooMany),
	)

	It("reads only the unread notices among those named, and decides nothing when none is", func() {
		events, err := notice.Read("1", []string{"11", "12", "13"}, map[string]bool{"11": true, "13": true}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(Equal([]es.Event{&notice.NoticesRead{Member: "1", IDs: []string{"11", "13"}, At: now.UnixMilli()}}))
		events, err = notice.Read("1", []string{"12"}, map[string]bool{"11": true}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
	})

	It("reads all only while some notice is unread", func() {
		Expect(notice.ReadAll("1", 2, now)).To(Equal([]es.Event{&notice.NoticesRead{Member: "1", All: true, At: now.UnixMilli()}}))
		Expect(notice.ReadAll("1", 0, now)).To(BeEmpty())
	})

	It("deletes the notices named", func() {
		Expect(notice.Delete("1", []string{"11"}, now)).To(Equal([]es.Event{&notice.NoticesDeleted{Member: "1", IDs: []string{"11"}, At: now.UnixMilli()}}))
	})
})
