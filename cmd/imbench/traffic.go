package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	pebblestore "github.com/eventchat/eventchat/adapters/eventstore/pebble"
	"github.com/eventchat/eventchat/adapters/keystore"
	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
	"github.com/eventchat/eventchat/adapters/sealing"
	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/friend"
	"github.com/eventchat/eventchat/domain/tenant"
)

// traffic shapes the chat history fillTraffic writes.
type traffic struct {
	events   int
	pairs    int
	ackEvery int  // one event in ackEvery is a read acknowledgement
	sealed   bool // personal fields sealed as the server seals them
}

// trafficFlags declares on fs the flags of a benchmark over a filled log:
// the traffic, the time limit and the directory.
func trafficFlags(fs *flag.FlagSet, limit time.Duration) func() (traffic, time.Duration, string, error) {
	events := fs.Int("events", 300_000, "events to fill the store with")
	pairs := fs.Int("pairs", 50, "friend pairs the messages go between")
	ackEvery := fs.Int("ack-every", 10, "one event in this many is a read acknowledgement")
	timeout := fs.Duration("timeout", limit, "give up after this long")
	dir := fs.String("dir", "", "directory for the store files (default: a temp dir, removed after)")
	sealed := fs.Bool("sealed", false, "seal the personal fields as the server does (adapters/sealing), with a key store in the directory")
	return func() (traffic, time.Duration, string, error) {
		if *events <= 0 || *pairs <= 0 || *ackEvery < 2 {
			return traffic{}, 0, "", errors.New("need -events > 0, -pairs > 0 and -ack-every >= 2")
		}
		return traffic{events: *events, pairs: *pairs, ackEvery: *ackEvery, sealed: *sealed}, *timeout, *dir, nil
	}
}

// filled is a benchmark's start over a filled log: the log, what it holds,
// how long filling took, its head and an empty read store beside it.
type filled struct {
	t     traffic
	log   sealing.Log
	mix   trafficMix
	fill  time.Duration
	head  uint64
	reads *sqliteread.Store
	// cpuProfile is where profile writes a CPU profile ("": nowhere).
	cpuProfile string
}

// profile starts the CPU profile the -cpuprofile flag asks for, of the
// measured phase only; the returned function stops it.
func (f filled) profile() (stop func(), err error) { return startCPUProfile(f.cpuProfile) }

// startCPUProfile writes a CPU profile to path until the returned function
// is called; with no path it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	out, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		return nil, errors.Join(err, out.Close())
	}
	return func() {
		pprof.StopCPUProfile()
		out.Close()
	}, nil
}

// setUp parses args with fs (the caller's own flags declared on it, the
// traffic's added here), bounds ctx by the time limit, fills a log in the
// work directory and opens an empty read store beside it. done releases
// all of it.
func setUp(ctx context.Context, fs *flag.FlagSet, limit time.Duration, args []string) (_ context.Context, f filled, done func(), err error) {
	parsed := trafficFlags(fs, limit)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the measured phase to this file")
	if err := fs.Parse(args); err != nil {
		return nil, f, nil, err
	}
	t, limit, dirFlag, err := parsed()
	if err != nil {
		return nil, f, nil, err
	}
	f.t, f.cpuProfile = t, *cpuProfile
	ctx, cancel := context.WithTimeout(ctx, limit)
	var undo []func()
	done = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		cancel()
	}
	defer func() {
		if err != nil {
			done()
		}
	}()
	dir, cleanup, err := workDir(dirFlag)
	if err != nil {
		return nil, f, nil, err
	}
	undo = append(undo, cleanup)
	start := time.Now()
	if f.log, f.mix, err = filledLog(ctx, dir, t); err != nil {
		return nil, f, nil, err
	}
	undo = append(undo, func() { f.log.Close() })
	f.fill = time.Since(start)
	if f.head, err = f.log.Head(ctx); err != nil {
		return nil, f, nil, err
	}
	if f.reads, err = sqliteread.Open(filepath.Join(dir, "read.db")); err != nil {
		return nil, f, nil, err
	}
	undo = append(undo, func() { f.reads.Close() })
	return ctx, f, done, nil
}

// filledLog opens the server's default event store (Pebble) in dir,
// sealed when t says so, and fills it with t.
func filledLog(ctx context.Context, dir string, t traffic) (sealing.Log, trafficMix, error) {
	var log sealing.Log
	log, err := pebblestore.Open(filepath.Join(dir, "events"))
	if err != nil {
		return nil, trafficMix{}, err
	}
	if t.sealed {
		keys, err := keystore.Open(filepath.Join(dir, keystore.FileName))
		if err != nil {
			return nil, trafficMix{}, errors.Join(err, log.Close())
		}
		log = sealedLog{sealing.NewStore(log, sealing.New(keys, catalog.Registry())), keys}
	}
	mix, err := fillTraffic(ctx, log, t)
	if err != nil {
		return nil, trafficMix{}, errors.Join(fmt.Errorf("fill: %w", err), log.Close())
	}
	return log, mix, nil
}

// sealedLog is a sealed log that closes its key store with it.
type sealedLog struct {
	*sealing.Store
	keys *keystore.SQLite
}

func (l sealedLog) Close() error { return errors.Join(l.Store.Close(), l.keys.Close()) }

// trafficMix counts what was written.
type trafficMix struct{ sent, acks int64 }

// fillBatch is the events per append while filling. Each pair appends from
// a goroutine of its own and group commit merges them, so the log
// interleaves the chats in runs of this length.
const fillBatch = 16

// texts are message contents of the lengths people type.
var texts = []string{
	"ok", "see you at 7", "on my way, 10 minutes", "did you get the file I sent this morning?",
	"Thanks! That works for me, let's do Thursday then.", "haha",
	"Can you check the numbers in the second table before the meeting? I think the totals are off.",
	"good night", "I'll call you after lunch",
}

// fillTraffic appends t.events chat events between t.pairs friend pairs,
// encoded as the commands encode them: mostly messages, both ways, and now
// and then the receiver acknowledging the newest message.
func fillTraffic(ctx context.Context, log sealing.Log, t traffic) (trafficMix, error) {
	var mix struct{ sent, acks atomic.Int64 }
	var nextMessage atomic.Uint64
	errs := make([]error, t.pairs)
	var wg sync.WaitGroup
	for p := range t.pairs {
		n := t.events / t.pairs
		if p < t.events%t.pairs {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := conversation{
				members: [2]string{memberID(2 * p), memberID(2*p + 1)},
				rng:     rand.New(rand.NewPCG(uint64(p), 7)), nextMessage: &nextMessage,
			}
			sent, acks, err := c.write(ctx, log, n, t.ackEvery)
			mix.sent.Add(sent)
			mix.acks.Add(acks)
			errs[p] = err
		}()
	}
	wg.Wait()
	return trafficMix{sent: mix.sent.Load(), acks: mix.acks.Load()}, errors.Join(errs...)
}

// memberID is the i-th synthetic member's 19-digit id.
func memberID(i int) string { return strconv.FormatUint(7_000_000_000_000_000_000+uint64(i), 10) }

// conversation writes one pair's chat.
type conversation struct {
	members     [2]string
	rng         *rand.Rand
	nextMessage *atomic.Uint64

	lastID   string // newest message
	lastFrom int    // and which member sent it
}

func (c *conversation) write(ctx context.Context, log sealing.Log, n, ackEvery int) (sent, acks int64, err error) {
	stream := es.Stream(tenant.Default, es.CategoryChat, friend.PairID(c.members[0], c.members[1]))
	batch := make([]es.EventData, 0, fillBatch)
	for i := range n {
		now := time.Now()
		var ev es.Event
		var actor, clientUUID string
		if i%ackEvery == ackEvery-1 && c.lastID != "" {
			reader := 1 - c.lastFrom
			ev = &chat.ReadAcknowledged{Reader: c.members[reader], Peer: c.members[c.lastFrom],
				ChatType: string(chat.Friend), MessageID: c.lastID, At: now.UnixMilli()}
			actor = c.members[reader]
			acks++
		} else {
			from := c.rng.IntN(2)
			c.lastFrom = from
			c.lastID = strconv.FormatUint(7_100_000_000_000_000_000+c.nextMessage.Add(1), 10)
			clientUUID = uuid.NewString()
			ev = &chat.MessageSent{MessageID: c.lastID, UUID: clientUUID, ChatType: string(chat.Friend),
				From: c.members[from], To: c.members[1-from], MsgType: string(chat.Text),
				Content: texts[c.rng.IntN(len(texts))], At: now.UnixMilli()}
			actor = c.members[from]
			sent++
		}
		data, err := json.Marshal(ev)
		if err != nil {
			return sent, acks, err
		}
		batch = append(batch, es.EventData{ID: uuid.NewString(), Type: es.StoredType(ev), Data: data, Metadata: es.Metadata{
			Tenant: tenant.Default, Actor: actor, CorrelationID: uuid.NewString(), ClientUUID: clientUUID, Time: now.UTC(),
		}})
		if len(batch) == fillBatch || i == n-1 {
			if _, err := log.Append(ctx, stream, es.Any, batch); err != nil {
				return sent, acks, err
			}
			batch = batch[:0]
		}
	}
	return sent, acks, nil
}
