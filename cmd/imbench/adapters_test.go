package main

import (
	"context"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sqliteread "github.com/eventchat/eventchat/adapters/readstore/sqlite"
)

var _ = Describe("Per-adapter figures", func() {
	ctx := context.Background()

	It("read a filled log through $all on Pebble, on SQLite and on the esdbtest double", func() {
		Expect(runSubscribe(ctx, []string{"-events", "1200", "-batch", "500", "-dir", GinkgoT().TempDir()})).To(Succeed())
		Expect(runSubscribe(ctx, []string{"-store", "sqlite", "-events", "1200", "-batch", "500", "-dir", GinkgoT().TempDir()})).To(Succeed())
		Expect(runSubscribe(ctx, []string{"-store", "esdbtest", "-events", "600", "-dir", GinkgoT().TempDir()})).To(Succeed())
	})

	It("append on the esdbtest double within its bounds", func() {
		Expect(runAppends(ctx, []string{"-store", "esdbtest", "-appenders", "4", "-warmup", "0s",
			"-duration", "200ms", "-max", "200", "-dir", GinkgoT().TempDir()})).To(Succeed())
	})

	It("write every batch of sessions with its checkpoint into the SQLite read store", func() {
		dir := GinkgoT().TempDir()
		Expect(runUpserts(ctx, []string{"-batches", "3", "-batch", "100", "-dir", dir})).To(Succeed())
		reads, err := sqliteread.Open(filepath.Join(dir, "read.db"))
		Expect(err).NotTo(HaveOccurred())
		defer reads.Close()
		Expect(reads.Checkpoints(ctx)).To(HaveKeyWithValue("bench", uint64(3)))
	})

	It("write sessions through the Mongo adapter on embedded FerretDB", func() {
		Expect(runUpserts(ctx, []string{"-store", "ferretdb", "-batches", "1", "-batch", "50", "-dir", GinkgoT().TempDir()})).To(Succeed())
	})

	It("refuse an unknown adapter, or a real server without its address", func() {
		dir := GinkgoT().TempDir()
		Expect(runSubscribe(ctx, []string{"-store", "nosuch", "-dir", dir})).To(MatchError(ContainSubstring("want sqlite")))
		Expect(runAppends(ctx, []string{"-store", "esdb", "-dir", dir})).To(MatchError(ContainSubstring("needs -esdb")))
		Expect(runUpserts(ctx, []string{"-store", "mongo", "-dir", dir})).To(MatchError(ContainSubstring("needs -mongo")))
		Expect(runUpserts(ctx, []string{"-store", "nosuch", "-dir", dir})).To(MatchError(ContainSubstring("want sqlite")))
	})
})
