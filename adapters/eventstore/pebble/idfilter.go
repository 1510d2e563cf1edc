package pebblestore

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// idFilter is a Bloom filter of every event id in the log, kept in memory
// (10 bits an id, about 1.2 MiB a million events) so that an append of new
// ids, nearly every append, reads nothing from the store to learn that they
// are new: a lookup in Pebble costs half of an append otherwise. It grows
// by adding a filter of twice the size of the last, full, one.
//
// Ids are added under seqMu only; they are tested by any goroutine.
type idFilter struct {
	seed    maphash.Seed
	filters atomic.Pointer[[]*idBloom]
}

type idBloom struct {
	words    []atomic.Uint64
	capacity int // ids it holds at its false-positive rate, about 1 %
	count    int // ids added, under seqMu
}

const (
	bitsPerID      = 10
	probes         = 7
	minFilterIDs   = 1 << 16
	filterGrowthBy = 2
)

func newIDFilter(ids int) *idFilter {
	f := &idFilter{seed: maphash.MakeSeed()}
	f.filters.Store(&[]*idBloom{newBloom(max(minFilterIDs, filterGrowthBy*ids))})
	return f
}

func newBloom(capacity int) *idBloom {
	return &idBloom{words: make([]atomic.Uint64, (capacity*bitsPerID+63)/64), capacity: capacity}
}

// add records id; the caller holds seqMu.
func (f *idFilter) add(id string) {
	filters := *f.filters.Load()
	last := filters[len(filters)-1]
	if last.count >= last.capacity {
		last = newBloom(filterGrowthBy * last.capacity)
		grown := append(append([]*idBloom(nil), filters...), last)
		f.filters.Store(&grown)
	}
	h := maphash.String(f.seed, id)
	n := uint64(len(last.words)) * 64
	for i := range uint64(probes) {
		bit := (h + i*(h>>32|1)) % n
		last.words[bit/64].Or(1 << (bit % 64))
	}
	last.count++
}

// mayHold is false when id was never added.
func (f *idFilter) mayHold(id string) bool {
	h := maphash.String(f.seed, id)
	for _, b := range *f.filters.Load() {
		if b.holds(h) {
			return true
		}
	}
	return false
}

func (b *idBloom) holds(h uint64) bool {
	n := uint64(len(b.words)) * 64
	for i := range uint64(probes) {
		bit := (h + i*(h>>32|1)) % n
		if b.words[bit/64].Load()&(1<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

// loadIDFilter fills a filter with the ids of the store, which holds about
// events of them.
func loadIDFilter(db *pebble.DB, events uint64) (*idFilter, error) {
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixID}, UpperBound: []byte{prefixID + 1}})
	if err != nil {
		return nil, err
	}
	f := newIDFilter(int(events))
	for valid := it.First(); valid; valid = it.Next() {
		f.add(string(it.Key()[1:]))
	}
	return f, it.Close()
}
