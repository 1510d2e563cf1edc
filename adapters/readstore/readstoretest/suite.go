// Package readstoretest is the contract every projections.ReadStore
// adapter passes: one set of ginkgo specs, run by each adapter's suite.
package readstoretest

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// Factory opens the read store kept in dir (a new directory per spec, so
// the store starts empty) and returns it with a function that closes it.
// Called again with the same dir, it opens another handle on the same
// store, as a second server node would.
type Factory func(dir string) (store projections.ReadStore, closeStore func())

// DescribeReadStore declares the contract specs, each run against a new
// store from factory. Call it at the top level of the adapter's test
// package:
//
//	var _ = readstoretest.DescribeReadStore("sqlite", factory)
func DescribeReadStore(name string, factory Factory) bool {
	return Describe(name+" read store contract", func() {
		var (
			store projections.ReadStore
			dir   string
		)
		BeforeEach(func() {
			var closeStore func()
			dir = GinkgoT().TempDir()
			store, closeStore = factory(dir)
			DeferCleanup(closeStore)
		})
		current := func() projections.ReadStore { return store }
		another := func() projections.ReadStore {
			s, closeStore := factory(dir)
			DeferCleanup(closeStore)
			return s
		}

		describeUpdate(current)
		describeMembers(current)
		describeMessages(current)
		describeHistory(current)
		describeMessageLife(current)
		describeMentions(current)
		describeGroups(current)
		describePersonal(current)
		describeNotices(current)
		describeErasureLookups(current)
		describeReadMarks(current)
		describeSessions(current)
		describeApplies(current)
		describeGroupApplies(current)
		describeFriendsAndAuthSessions(current)
		describeVisibility(current)
		describeSearch(current)
		describeLease(current, another)
	})
}

// DescribeSearch declares the search specs of the contract alone, for an
// adapter to run them again in another mode.
func DescribeSearch(name string, factory Factory) bool {
	return Describe(name+" search contract", func() {
		var store projections.ReadStore
		BeforeEach(func() {
			var closeStore func()
			store, closeStore = factory(GinkgoT().TempDir())
			DeferCleanup(closeStore)
		})
		describeSearch(func() projections.ReadStore { return store })
	})
}

var ctx = context.Background()

// update runs fn in one successful Update.
func update(store projections.ReadStore, fn func(tx projections.Tx) error) {
	GinkgoHelper()
	Expect(store.Update(ctx, fn)).To(Succeed())
}

// stored reads every stored message of chatID in chat order as the
// projectors do, whoever may see them.
func stored(store projections.ReadStore, chatID string) []projections.Message {
	GinkgoHelper()
	var out []projections.Message
	update(store, func(tx projections.Tx) error {
		var err error
		out, err = tx.MessagesAfter(ctx, chatID, 0)
		return err
	})
	return out
}
