package main

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/projections"
)

// searchPhrases are what the messages say and what is looked for:
// Vietnamese with its diacritics, Chinese, English.
var searchPhrases = []string{
	"tối nay ăn cơm ở đâu", "mai mình đi cà phê nhé", "đang họp, gọi lại sau", "chúc mừng sinh nhật bạn",
	"我们今天去吃饭吧", "明天下午三点开会", "这个周末有空吗", "谢谢你的帮助",
	"see you at the station", "the report is ready for review", "running ten minutes late", "happy new year",
}

// runSearch folds messages into a SQLite read store, each batch in one
// Update as the projections write them and indexed in another as the
// search projection does, then searches as members of the
// tenant; it reports the search latency and the fold's cost per message
// with the messages' text indexed and with the same messages without text
// (nothing to index).
func runSearch(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	messages := fs.Int("messages", 1_000_000, "messages to fold")
	members := fs.Int("members", 10_000, "members; each chats one to one with 10 others")
	queries := fs.Int("queries", 2000, "searches to time")
	batch := fs.Int("batch", 1000, "messages per Update")
	dirFlag := fs.String("dir", "", "directory for the store files (default: a temp dir, removed after)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *messages <= 0 || *members < 11 || *queries <= 0 || *batch <= 0 {
		return errors.New("need -messages, -queries, -batch > 0 and -members > 10")
	}
	dir, cleanup, err := workDir(*dirFlag)
	if err != nil {
		return err
	}
	defer cleanup()

	// One message in ten is with one of the busy members m0 to m9, who
	// hold a tenth of the messages between them: their searches go through
	// the index, the others' read their few chats.
	chatOf := func(n int) (chat string, a, b int) {
		a = n % *members
		b = (a + 1 + (n / *members)%10) % *members
		if n%10 == 0 {
			b = (n / 10) % 10
			if a == b {
				a = 10 + n%(*members-10)
			}
		}
		return "c" + strconv.Itoa(min(a, b)) + "-" + strconv.Itoa(max(a, b)), a, b
	}
	message := func(n int, text bool) projections.Message {
		chat, a, b := chatOf(n)
		m := projections.Message{ID: strconv.Itoa(n + 1), UUID: "u" + strconv.Itoa(n), Tenant: "x0001", ChatID: chat,
			Seq: uint64(n/(*members*10) + 1), Position: uint64(n + 1), ChatType: "Friend", From: "m" + strconv.Itoa(a),
			To: "m" + strconv.Itoa(b), MsgType: "Text", ServerReceiveTime: int64(n), Status: projections.StatusRead}
		if text {
			m.Content = searchPhrases[n%len(searchPhrases)] + " #" + strconv.Itoa(n)
		}
		return m
	}
	// fold returns the store, the time of the whole fold and that of its
	// first costN messages.
	costN := max(*batch, *messages/10)
	fold := func(name string, n int, text bool) (*sqliteread.Store, time.Duration, time.Duration, error) {
		s, err := sqliteread.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, 0, 0, err
		}
		ms := make([]projections.Message, 0, *batch)
		ids := make([]string, 0, *batch)
		start := time.Now()
		var first time.Duration
		for from := 0; from < n && ctx.Err() == nil; from += *batch {
			if from == costN {
				first = time.Since(start)
			}
			ms = ms[:0]
			for i := from; i < min(n, from+*batch); i++ {
				ms = append(ms, message(i, text))
			}
			err := s.Update(ctx, func(tx projections.Tx) error {
				if err := tx.InsertMessages(ctx, ms); err != nil {
					return err
				}
				return tx.SetCheckpoint(ctx, "bench", uint64(from+len(ms)))
			})
			if err == nil && text {
				// The search projector's fold, in a batch of its own.
				ids = ids[:0]
				for i := range ms {
					ids = append(ids, ms[i].ID)
				}
				err = s.Update(ctx, func(tx projections.Tx) error {
					if err := tx.IndexMessages(ctx, ids); err != nil {
						return err
					}
					return tx.SetCheckpoint(ctx, "bench-search", uint64(from+len(ms)))
				})
			}
			if err != nil {
				return nil, 0, 0, errors.Join(err, s.Close())
			}
		}
		took := time.Since(start)
		if first == 0 {
			first = took
		}
		return s, took, first, ctx.Err()
	}

	// The fold's cost with and without text, over the same first costN
	// messages (a tenth of the run, at least one batch).
	plain, _, plainTook, err := fold("plain.db", costN, false)
	if err != nil {
		return err
	}
	_ = plain.Close()
	store, took, textTook, err := fold("read.db", *messages, true)
	if err != nil {
		return err
	}
	defer store.Close()
	perText := textTook.Seconds() / float64(min(costN, *messages)) * 1e6
	perPlain := plainTook.Seconds() / float64(costN) * 1e6
	result("search_fold_us_per_msg", perText, "us")
	result("search_fold_plain_us_per_msg", perPlain, "us")
	detail("first %d messages: %.1f us each with their text indexed, %.1f us each without text; all %d folded in %.1f s (%.1f us each)",
		costN, perText, perPlain, *messages, took.Seconds(), took.Seconds()/float64(*messages)*1e6)

	// Each member's conversations, as the chats projector lists them.
	err = store.Update(ctx, func(tx projections.Tx) error {
		var ss []projections.Session
		for n := 0; n < *members*10; n++ {
			chat, a, b := chatOf(n)
			for _, pair := range [][2]int{{a, b}, {b, a}} {
				ss = append(ss, projections.Session{Tenant: "x0001", Member: "m" + strconv.Itoa(pair[0]), Peer: "m" + strconv.Itoa(pair[1]),
					ChatType: "Friend", ChatID: chat})
			}
		}
		return tx.PutSessions(ctx, ss)
	})
	if err != nil {
		return err
	}

	rng := rand.New(rand.NewPCG(1, 2))
	took2 := make([]time.Duration, 0, *queries)
	var busy []time.Duration
	found := 0
	for i := 0; i < *queries && ctx.Err() == nil; i++ {
		phrase := []rune(projections.FoldSearch(searchPhrases[rng.IntN(len(searchPhrases))]))
		length := 2 + rng.IntN(5)
		at := rng.IntN(len(phrase) - length + 1)
		who := rng.IntN(*members)
		if i%4 == 0 {
			who = rng.IntN(10)
		}
		v := projections.Viewer{Tenant: "x0001", Member: "m" + strconv.Itoa(who)}
		start := time.Now()
		hits, err := store.SearchMessages(ctx, v, projections.SearchQuery{Text: string(phrase[at : at+length]), Size: 20})
		if err != nil {
			return err
		}
		took2 = append(took2, time.Since(start))
		if who < 10 {
			busy = append(busy, took2[len(took2)-1])
		}
		found += len(hits)
	}
	if len(took2) == 0 {
		return errors.New("no search timed")
	}
	slices.Sort(took2)
	slices.Sort(busy)
	pct := func(ds []time.Duration, p float64) float64 {
		if len(ds) == 0 {
			return 0
		}
		return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000
	}
	result("search_p50", pct(took2, 0.50), "ms")
	result("search_p99", pct(took2, 0.99), "ms")
	result("search_busy_p99", pct(busy, 0.99), "ms")
	detail("%d searches of 2 to 6 characters, a quarter of them by the busy members (%d messages each): p50 %.2f ms, p99 %.2f ms, max %.2f ms; %.1f hits each on average",
		len(took2), *messages/100, pct(took2, 0.5), pct(took2, 0.99), pct(took2, 1), float64(found)/float64(len(took2)))
	detail("the busy members' searches alone: p50 %.2f ms, p99 %.2f ms, max %.2f ms", pct(busy, 0.5), pct(busy, 0.99), pct(busy, 1))
	return nil
}
