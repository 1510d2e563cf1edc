package projections_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/projections"
)

var _ = Describe("The calls projector", func() {
	started := &call.CallStarted{CallID: "c1", Caller: "1", Callee: "2", Media: "video", At: 1000}
	answered := &call.CallAnswered{CallID: "c1", Caller: "1", Callee: "2", Media: "video", By: "2", At: 2000}
	ended := &call.CallEnded{CallID: "c1", Caller: "1", Callee: "2", Media: "video", By: "1", Outcome: "completed", Duration: 61, At: 63000}
	record := &chat.MessageSent{MessageID: "m9", UUID: "call-c1", ChatType: "Friend", From: "1", To: "2", MsgType: "VideoCall",
		Content: `{"callId":"c1","media":"video","outcome":"completed","duration":61}`, At: 63000}

	It("pushes each signal as a 12 to both members, and nothing for other events", func() {
		store := openStore()
		l := newLog().add(chatStream, started).add(chatStream, sent("m1", "1", "2", "hi")).
			add(chatStream, answered).add(chatStream, ended).add(chatStream, record)
		ds := fold(store, projections.Calls{}, l.envs, 2)
		Expect(cmds(ds)).To(Equal([]int{12, 12, 12}))
		var ops []string
		for _, d := range ds {
			Expect(d.To).To(ConsistOf("1", "2"))
			var s map[string]any
			Expect(json.Unmarshal(encoded(d), &s)).To(Succeed())
			Expect(s).To(HaveKeyWithValue("callId", "c1"))
			Expect(s).To(HaveKeyWithValue("media", "video"))
			Expect(s).To(HaveKeyWithValue("from", "1"))
			Expect(s).To(HaveKeyWithValue("to", "2"))
			ops = append(ops, s["operationType"].(string))
		}
		Expect(ops).To(Equal([]string{"Start", "Answer", "Complete"}))
		var end map[string]any
		Expect(json.Unmarshal(encoded(ds[2]), &end)).To(Succeed())
		Expect(end).To(HaveKeyWithValue("outcome", "completed"))
		Expect(end).To(HaveKeyWithValue("duration", BeNumerically("==", 61)))
		Expect(end).To(HaveKeyWithValue("by", "1"))
		Expect(end).To(HaveKeyWithValue("time", BeNumerically("==", 63000)))
	})

	It("names the signal of each outcome; a server's end has no by", func() {
		store := openStore()
		l := newLog()
		for _, o := range []string{"cancelled", "rejected", "noAnswer", "busy"} {
			l.add(chatStream, &call.CallEnded{CallID: "c-" + o, Caller: "1", Callee: "2", Media: "voice", Outcome: o, At: 5})
		}
		var ops []string
		for _, d := range fold(store, projections.Calls{}, l.envs, 0) {
			var s map[string]any
			Expect(json.Unmarshal(encoded(d), &s)).To(Succeed())
			Expect(s).NotTo(HaveKey("by"))
			ops = append(ops, s["operationType"].(string))
		}
		Expect(ops).To(Equal([]string{"Cancel", "Reject", "NoAnswer", "Busy"}))
	})

	It("leaves the call record to the chats projector: in history, previewed, unread to the callee", func() {
		store := openStore()
		l := newLog().add(chatStream, started).add(chatStream, ended).add(chatStream, record)
		ds := fold(store, projections.Chats{}, l.envs, 0)
		Expect(cmds(ds)).To(Equal([]int{11}))
		page, err := store.HistoryPage(ctx, as("2"), "1_2", nil, projections.Up, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).To(HaveLen(1))
		Expect([]string{page[0].ID, page[0].MsgType, page[0].Content}).To(Equal([]string{"m9", "VideoCall", record.Content}))
		ss, err := store.Sessions(ctx, "2")
		Expect(err).NotTo(HaveOccurred())
		Expect(ss).To(HaveLen(1))
		Expect(ss[0].LastMessageContent).To(Equal("[video call]"))
		Expect(ss[0].UnreadCount).To(Equal(1))
	})
})
