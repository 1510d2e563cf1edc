package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/projections"
)

// benchText is every benchmark message's content: a short chat line.
const benchText = "benchmark message, about as long as a short chat line"

// pairConn is the sending side of a sender/receiver pair, and how the
// receiver reads its chat back after a resync (readBack, nil on the relay).
type pairConn struct {
	sender   *wsclient.Client
	to       string // the receiver's member id
	readBack func(ctx context.Context, visit func(uuid string)) error
}

// phase tallies one measurement. A message's uuid carries the phase's tag,
// its pair and its sequence in the pair ("<tag><pair>x<seq>"), which index
// every per-message slot. All slots are atomic: senders, receivers and the
// tallying read them concurrently.
type phase struct {
	tag     byte
	pairs   int
	perPair int
	base    time.Time // the monotonic origin of every time recorded

	acked      []atomic.Bool
	deliveries []atomic.Uint32
	sentAt     []atomic.Int64 // ns since base; timed phases only
	latency    []atomic.Int64 // send to first delivery, ns; timed phases only
	ackLatency []atomic.Int64 // send to reply, ns; timed phases only

	ackedN, deliveredN, duplicateN atomic.Int64
	failedN, rejectedN             atomic.Int64
	firstProblem                   atomic.Pointer[string]

	// A receiver told to resync (its pushes dropped by the server, a slow
	// consumer) reloads its chat, as the web client does: what it reads
	// back is not missing, and is no delivery either.
	resynced           []atomic.Bool // by pair
	readBack           []atomic.Bool
	resyncN, readBackN atomic.Int64
}

func newPhase(tag byte, pairs, perPair int, timed bool) *phase {
	n := pairs * perPair
	ph := &phase{tag: tag, pairs: pairs, perPair: perPair, base: time.Now(),
		acked: make([]atomic.Bool, n), deliveries: make([]atomic.Uint32, n),
		resynced: make([]atomic.Bool, pairs), readBack: make([]atomic.Bool, n)}
	if timed {
		ph.sentAt, ph.latency, ph.ackLatency = make([]atomic.Int64, n), make([]atomic.Int64, n), make([]atomic.Int64, n)
	}
	return ph
}

func (ph *phase) uuid(pair, seq int) string {
	var b [32]byte
	u := append(b[:0], ph.tag)
	u = strconv.AppendInt(u, int64(pair), 10)
	u = append(u, 'x')
	u = strconv.AppendInt(u, int64(seq), 10)
	return string(u)
}

// index is the slot of a uuid of this phase.
func (ph *phase) index(uuid string) (int, bool) {
	if len(uuid) < 4 || uuid[0] != ph.tag {
		return 0, false
	}
	for i := 1; i < len(uuid); i++ {
		if uuid[i] != 'x' {
			continue
		}
		pair, err1 := strconv.Atoi(uuid[1:i])
		seq, err2 := strconv.Atoi(uuid[i+1:])
		if err1 != nil || err2 != nil || pair < 0 || pair >= ph.pairs || seq < 0 || seq >= ph.perPair {
			return 0, false
		}
		return pair*ph.perPair + seq, true
	}
	return 0, false
}

// send sends message seq of pair and waits for the reply. It returns false
// when the socket failed or ctx ended.
func (ph *phase) send(ctx context.Context, p pairConn, pair, seq int) bool {
	i := pair*ph.perPair + seq
	body := commands.SendMessage{UUID: ph.uuid(pair, seq), ChatType: string(chat.Friend), To: p.to,
		MsgType: string(chat.Text), Content: benchText}
	sent := time.Since(ph.base)
	if ph.sentAt != nil {
		ph.sentAt[i].Store(int64(sent))
	}
	r, err := p.sender.Request(ctx, projections.CmdMessage, body)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			ph.failedN.Add(1)
			ph.problem("request failed: " + err.Error())
		}
		return false
	case !r.OK():
		ph.rejectedN.Add(1)
		ph.problem("send refused: " + r.Code + " " + r.Info)
	default:
		if ph.ackLatency != nil {
			ph.ackLatency[i].Store(int64(time.Since(ph.base) - sent))
		}
		ph.acked[i].Store(true)
		ph.ackedN.Add(1)
	}
	return true
}

func (ph *phase) problem(s string) { ph.firstProblem.CompareAndSwap(nil, &s) }

// delivered records a pushed message of this phase.
func (ph *phase) delivered(uuid string) {
	at := time.Since(ph.base)
	i, ok := ph.index(uuid)
	if !ok {
		return
	}
	if ph.deliveries[i].Add(1) > 1 {
		ph.duplicateN.Add(1)
		return
	}
	ph.deliveredN.Add(1)
	if ph.latency != nil {
		ph.latency[i].Store(int64(at) - ph.sentAt[i].Load())
	}
}

// missing counts acknowledged messages not delivered yet, nor read back.
func (ph *phase) missing() int { return ph.missingIn(0, len(ph.acked)) }

// missingIn counts the missing messages of indexes from to to (excluded).
func (ph *phase) missingIn(from, to int) int {
	n := 0
	for i := from; i < to; i++ {
		if ph.isMissing(i) {
			n++
		}
	}
	return n
}

func (ph *phase) isMissing(i int) bool {
	return ph.acked[i].Load() && ph.deliveries[i].Load() == 0 && !ph.readBack[i].Load()
}

// toldToResync records a resync frame on pair's receiver.
func (ph *phase) toldToResync(pair int) {
	ph.resyncN.Add(1)
	ph.resynced[pair].Store(true)
}

// settleDeliveries waits for the deliveries (awaitDeliveries), has the
// receivers told to resync read their chats back (readBackResynced), tells
// how many were, and returns how many acknowledged messages are still
// missing.
func (ph *phase) settleDeliveries(ctx context.Context, limit time.Duration, pairs []pairConn) (int, error) {
	missing := ph.awaitDeliveries(ctx, limit)
	if ph.resyncN.Load() == 0 {
		return missing, nil
	}
	missing, err := ph.readBackResynced(ctx, pairs)
	if err != nil {
		return 0, err
	}
	detail("receivers told to resync (their queued pushes dropped, a slow consumer): %d times; %d messages read back from their chats after it",
		ph.resyncN.Load(), ph.readBackN.Load())
	return missing, nil
}

// readBackResynced has each receiver told to resync that still misses
// messages read its chat back, and returns how many are still missing.
func (ph *phase) readBackResynced(ctx context.Context, pairs []pairConn) (int, error) {
	for p := range pairs {
		if !ph.resynced[p].Load() || pairs[p].readBack == nil || ph.missingIn(p*ph.perPair, (p+1)*ph.perPair) == 0 {
			continue
		}
		err := pairs[p].readBack(ctx, func(uuid string) {
			if i, ok := ph.index(uuid); ok && ph.isMissing(i) {
				ph.readBack[i].Store(true)
				ph.readBackN.Add(1)
			}
		})
		if err != nil {
			return 0, fmt.Errorf("read back pair %d after a resync: %w", p, err)
		}
	}
	return ph.missing(), nil
}

// awaitDeliveries waits until every acknowledged message is delivered, or
// limit passes; it returns how many are still missing.
func (ph *phase) awaitDeliveries(ctx context.Context, limit time.Duration) int {
	deadline := time.Now().Add(limit)
	for {
		n := ph.missing()
		if n == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return n
		}
		wait(ctx, 50*time.Millisecond, nil)
	}
}

// latencies returns the sorted send-to-delivery and send-to-reply times of
// the delivered, acknowledged messages.
func (ph *phase) latencies() (delivery, ack []time.Duration) {
	for i := range ph.acked {
		if ph.acked[i].Load() && ph.deliveries[i].Load() > 0 {
			delivery = append(delivery, time.Duration(ph.latency[i].Load()))
			ack = append(ack, time.Duration(ph.ackLatency[i].Load()))
		}
	}
	slices.Sort(delivery)
	slices.Sort(ack)
	return delivery, ack
}

// percentile is the nearest-rank percentile p (0..100) of sorted ds.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// pushedMessage is what a receiver reads of a pushed 11.
type pushedMessage struct {
	UUID string `json:"uuid"`
	From string `json:"from"`
}

// receiver drains one socket's pushes for the whole run and records, in the
// phase current then, each message from partner, and the resync frames of
// pair's receiver (pair -1: a sender's socket).
type receiver struct {
	current *atomic.Pointer[phase]
	errors  atomic.Int64 // error frames pushed (failures of requests without id)
}

func (r *receiver) drain(c *wsclient.Client, partner string, pair int) {
	go func() {
		var m pushedMessage
		for {
			f, err := c.Next(context.Background())
			if err != nil {
				return // the socket ended: closed by us, or counted as lost
			}
			if f.Code != "" {
				r.errors.Add(1)
			}
			if f.Cmd == projections.CmdResync && pair >= 0 {
				if ph := r.current.Load(); ph != nil {
					ph.toldToResync(pair)
				}
			}
			if f.Cmd != projections.CmdMessage {
				continue
			}
			m = pushedMessage{}
			if json.Unmarshal(f.Data, &m) != nil || m.From != partner {
				continue
			}
			if ph := r.current.Load(); ph != nil {
				ph.delivered(m.UUID)
			}
		}
	}()
}
