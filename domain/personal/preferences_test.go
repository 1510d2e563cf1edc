package personal_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
)

var _ = Describe("Preferences", func() {
	now := time.UnixMilli(1_800_000_000_000)
	size := func(n int) *int { return &n }
	text := func(s string) *string { return &s }
	off := false

	It("changes the settings given and keeps the others", func() {
		events, next, err := personal.SetPreferences("m1", personal.DefaultPreferences(),
			personal.PreferencesChange{Notifications: &off, FontSize: size(personal.FontLarge), Background: text("night")}, now)
		Expect(err).NotTo(HaveOccurred())
		want := personal.DefaultPreferences()
		want.Notifications, want.FontSize, want.Background = false, 2, "night"
		Expect(next).To(Equal(want))
		Expect(events).To(Equal([]es.Event{&personal.PreferencesSet{Member: "m1", Preferences: want, At: now.UnixMilli()}}))
	})

	It("decides nothing for a change that changes nothing", func() {
		events, _, err := personal.SetPreferences("m1", personal.DefaultPreferences(), personal.PreferencesChange{FontSize: size(1)}, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(events).To(BeEmpty())
	})

	DescribeTable("refuses a font size or background out of range",
		func(c personal.PreferencesChange) {
			events, _, err := personal.SetPreferences("m1", personal.DefaultPreferences(), c, now)
			Expect(fault.Is(err, fault.Invalid)).To(BeTrue())
			Expect(events).To(BeEmpty())
		},
		Entry("font size 3", personal.PreferencesChange{FontSize: size(3)}),
		Entry("font size -1", personal.PreferencesChange{FontSize: size(-1)}),
		Entry("an unknown background", personal.PreferencesChange{Background: text("plaid")}),
	)
})
