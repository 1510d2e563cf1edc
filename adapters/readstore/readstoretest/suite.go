// Package readstoretest is the contract every projections.ReadStore
// adapter passes: one set of ginkgo specs, run by each adapter's suite.
package readstoretest

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/projections"
)

// Factory opens an empty read store, keeping any file it needs in dir (a
// new directory per spec), and returns it with a function that closes it.
type Factory func(dir string) (store projections.ReadStore, closeStore func())

// DescribeReadStore declares the contract specs, each run against a new
// store from factory. Call it at the top level of the adapter's test
// package:
//
//	var _ = readstoretest.DescribeReadStore("sqlite", factory)
func DescribeReadStore(name string, factory Factory) bool {
	return Describe(name+" read store contract", func() {
		var store projections.ReadStore
		BeforeEach(func() {
			var closeStore func()
			store, closeStore = factory(GinkgoT().TempDir())
			DeferCleanup(closeStore)
		})
		current := func() projections.ReadStore { return store }

		describeUpdate(current)
		describeMembers(current)
		describeMessages(current)
		describeHistory(current)
		describeReadMarks(current)
		describeSessions(current)
		describeApplies(current)
		describeFriendsAndAuthSessions(current)
	})
}

var ctx = context.Background()

// update runs fn in one successful Update.
func update(store projections.ReadStore, fn func(tx projections.Tx) error) {
	GinkgoHelper()
	Expect(store.Update(ctx, fn)).To(Succeed())
}
