package sqliteread_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

const (
	benchBatch = 2000 // messages per Update, as the projection engine feeds them
	benchChats = 50   // chats a batch touches: 100 session rows
)

func openBench(b *testing.B) *sqliteread.Store {
	b.Helper()
	s, err := sqliteread.Open(filepath.Join(b.TempDir(), "read.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// benchMessages returns n messages spread over chats chats, continuing the
// sequences after seq messages per chat. Ids are time-ordered like the
// snowflake ids the server makes; the client's uuid is random.
func benchMessages(n, chats int, seq uint64) []projections.Message {
	ms := make([]projections.Message, n)
	for i := range ms {
		chat := i % chats
		ms[i] = projections.Message{
			ID: strconv.FormatUint(7400000000000000000+seq*uint64(chats)+uint64(i), 10), UUID: uuid.NewString(), Tenant: "x0001", ChatID: fmt.Sprintf("chat-%04d", chat),
			Seq: seq + uint64(i/chats) + 1, Position: seq*uint64(chats) + uint64(i) + 1, ChatType: "Friend",
			From: fmt.Sprintf("member-%04d-a", chat), To: fmt.Sprintf("member-%04d-b", chat), MsgType: "Text",
			Content: "a short chat message of about sixty bytes, like most are", ServerReceiveTime: 1700000000000 + int64(i),
			Status: projections.StatusUnread,
		}
	}
	return ms
}

// runBatches runs b.N Updates applying apply to a new batch of messages
// spread over chats chats, and reports messages per second of wall time
// and the CPU time the process spent per message inside Update (other load
// on the machine does not inflate it). Batches are made outside the timer.
func runBatches(b *testing.B, chats int, apply func(ctx context.Context, tx projections.Tx, ms []projections.Message) error) {
	s := openBench(b)
	ctx := context.Background()
	var cpu time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		ms := benchMessages(benchBatch, chats, uint64(i*benchBatch/chats))
		b.StartTimer()
		cpu0 := cpuTime()
		if err := s.Update(ctx, func(tx projections.Tx) error { return apply(ctx, tx, ms) }); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - cpu0
	}
	msgs := float64(b.N * benchBatch)
	b.ReportMetric(msgs/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(cpu)/float64(time.Microsecond)/msgs, "cpu-µs/msg")
}

// BenchmarkInsertMessages inserts batches spread over few or many chats:
// the more chats a batch touches, the more index pages it dirties.
func BenchmarkInsertMessages(b *testing.B) {
	for _, chats := range []int{50, 1000} {
		b.Run(fmt.Sprintf("chats=%d", chats), func(b *testing.B) {
			runBatches(b, chats, func(ctx context.Context, tx projections.Tx, ms []projections.Message) error {
				return tx.InsertMessages(ctx, ms)
			})
		})
	}
}

// BenchmarkProjectorBatch is one batch of the history and sessions
// projectors: the messages, the sessions of both members of every chat
// read once and written once (the caller caches them for the batch), and
// the checkpoints.
func BenchmarkProjectorBatch(b *testing.B) {
	runBatches(b, benchChats, projectBatch)
}

func projectBatch(ctx context.Context, tx projections.Tx, ms []projections.Message) error {
	if err := tx.InsertMessages(ctx, ms); err != nil {
		return err
	}
	sides := func(m *projections.Message) [2]projections.SessionKey {
		return [2]projections.SessionKey{{Member: m.From, Peer: m.To}, {Member: m.To, Peer: m.From}}
	}
	keys := make([]projections.SessionKey, 0, 2*benchChats)
	seen := map[projections.SessionKey]bool{}
	for i := range ms {
		for _, k := range sides(&ms[i]) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	cached, err := tx.GetSessions(ctx, keys)
	if err != nil {
		return err
	}
	for i := range ms {
		m := &ms[i]
		for _, k := range sides(m) {
			sess := cached[k]
			sess.Tenant, sess.Member, sess.Peer, sess.ChatID, sess.ChatType = m.Tenant, k.Member, k.Peer, m.ChatID, m.ChatType
			sess.LastMessageID, sess.LastMessageType, sess.LastMessageContent = m.ID, m.MsgType, m.Content
			sess.LastMessageTime = m.ServerReceiveTime
			if k.Member == m.To {
				sess.UnreadCount++
			}
			cached[k] = sess
		}
	}
	changed := make([]projections.Session, 0, len(cached))
	for _, sess := range cached {
		changed = append(changed, sess)
	}
	if err := tx.PutSessions(ctx, changed); err != nil {
		return err
	}
	if err := tx.SetCheckpoint(ctx, "history.v1", ms[len(ms)-1].Position); err != nil {
		return err
	}
	return tx.SetCheckpoint(ctx, "sessions.v1", ms[len(ms)-1].Position)
}

// BenchmarkReadAck is the chats projector's handling of one read ack after
// nine messages: it flushes them, then looks the acked message up, marks
// the chat read up to it and counts what is left unread. 100 acks commit
// together.
func BenchmarkReadAck(b *testing.B) {
	const perAck, acksPerBatch = 9, 100
	s := openBench(b)
	ctx := context.Background()
	all := benchMessages(b.N*perAck, benchChats, 0)
	b.ResetTimer()
	for first := 0; first < b.N; first += acksPerBatch {
		err := s.Update(ctx, func(tx projections.Tx) error {
			for ack := first; ack < min(first+acksPerBatch, b.N); ack++ {
				ms := all[ack*perAck : (ack+1)*perAck]
				if err := tx.InsertMessages(ctx, ms); err != nil {
					return err
				}
				last := ms[len(ms)-1]
				chatID, seq, _, err := tx.LookupMessage(ctx, last.ID)
				if err != nil {
					return err
				}
				if _, err := tx.MarkRead(ctx, chatID, last.To, seq); err != nil {
					return err
				}
				if _, err := tx.CountUnread(ctx, chatID, last.To); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*(perAck+1))/b.Elapsed().Seconds(), "events/s")
}

// partyOf is a member of chat number chat.
func partyOf(chat int) projections.Viewer {
	return projections.Viewer{Tenant: "x0001", Member: fmt.Sprintf("member-%04d-a", chat)}
}

func BenchmarkHistoryPage(b *testing.B) {
	const chats, perChat = 100, 1000
	s := openBench(b)
	ctx := context.Background()
	all := benchMessages(chats*perChat, chats, 0)
	for from := 0; from < len(all); from += benchBatch {
		err := s.Update(ctx, func(tx projections.Tx) error { return tx.InsertMessages(ctx, all[from:from+benchBatch]) })
		if err != nil {
			b.Fatal(err)
		}
	}
	anchor := uint64(perChat / 2)
	for _, c := range []struct {
		name   string
		anchor *uint64
		dir    projections.PageDirection
	}{{"newest", nil, projections.Up}, {"up", &anchor, projections.Up}, {"down", &anchor, projections.Down}} {
		b.Run(c.name, func(b *testing.B) {
			for i := range b.N {
				page, err := s.HistoryPage(ctx, partyOf(i%chats), fmt.Sprintf("chat-%04d", i%chats), c.anchor, c.dir, 20)
				if err != nil || len(page) != 20 {
					b.Fatal(len(page), err)
				}
			}
		})
		b.Run(c.name+"-parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					if _, err := s.HistoryPage(ctx, partyOf(i%chats), fmt.Sprintf("chat-%04d", i%chats), c.anchor, c.dir, 20); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
