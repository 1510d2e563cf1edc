package readstoretest

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"

	"github.com/eventchat/eventchat/projections"
)

const (
	tenantA = "x0001"
	tenantB = "x0002"
)

// viewerA is a member of tenantA who is in no chat or group of the
// fixtures.
var viewerA = projections.Viewer{Tenant: tenantA, Member: "viewer"}

func member(tenant, id, account, phone string) projections.Member {
	return projections.Member{
		ID: id, Tenant: tenant, Account: account, Phone: phone, Name: "name of " + id,
		HeadURL: "https://img.example/" + id, Level: "L1", RegisteredAt: 1700000000000,
	}
}

// message is message seq of a friend chat, from -> to, Unread.
func message(chatID string, seq uint64, from, to string) projections.Message {
	return projections.Message{
		ID: fmt.Sprintf("%s-m%d", chatID, seq), UUID: fmt.Sprintf("u-%s-%d", chatID, seq), Tenant: tenantA,
		ChatID: chatID, Seq: seq, Position: 1000 + seq, ChatType: "Friend", From: from, To: to,
		MsgType: "Text", Content: fmt.Sprintf("hello %d", seq), ServerReceiveTime: 1700000000000 + int64(seq),
		Status: projections.StatusUnread,
	}
}

// messages are seqs first..last of chatID, alternating from a to b and back.
func messages(chatID string, first, last uint64) []projections.Message {
	var ms []projections.Message
	for seq := first; seq <= last; seq++ {
		if seq%2 == 1 {
			ms = append(ms, message(chatID, seq, "alice", "bob"))
		} else {
			ms = append(ms, message(chatID, seq, "bob", "alice"))
		}
	}
	return ms
}

func seqs(ms []projections.Message) []uint64 {
	out := make([]uint64, len(ms))
	for i, m := range ms {
		out[i] = m.Seq
	}
	return out
}

func seqRange(first, last uint64) []uint64 {
	var out []uint64
	for s := first; s <= last; s++ {
		out = append(out, s)
	}
	return out
}

func session(member, peer string, lastTime int64) projections.Session {
	return projections.Session{
		Tenant: tenantA, Member: member, ChatType: "Friend", Peer: peer, ChatID: "chat-" + member + "-" + peer,
		LastMessageID: "m-" + peer, LastMessageType: "Text", LastMessageContent: "hi " + peer,
		LastMessageTime: lastTime, UnreadCount: 2,
	}
}

func apply(tenant, id, from, to string, createdAt int64) projections.Apply {
	return projections.Apply{
		ID: id, Tenant: tenant, PairID: "pair-" + from + "-" + to, From: from, To: to, Remark: "remark " + id,
		Content: "let us be friends", Status: "Pending", ReadFlag: "Unread", CreatedAt: createdAt, UpdatedAt: createdAt,
	}
}

func applyIDs(as []projections.Apply) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

func ptr(u uint64) *uint64 { return &u }

// as is member of tenantA as a viewer.
func as(member string) projections.Viewer { return projections.Viewer{Tenant: tenantA, Member: member} }

// withID is m under another id, as a second node making the same id would
// send it.
func withID(m projections.Message, id string) projections.Message {
	m.ID = id
	return m
}

// atOnce calls f(0) to f(n-1) on n goroutines at once and returns what
// they returned, in their order.
func atOnce[T any](n int, f func(i int) T) []T {
	GinkgoHelper()
	out := make([]T, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			out[i] = f(i)
		}()
	}
	wg.Wait()
	return out
}
