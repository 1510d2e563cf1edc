package sqlitestore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("The WAL under a steady load", func() {
	It("starts over from its beginning instead of growing", func() {
		saved := restartWALBytes
		restartWALBytes = 1 << 20
		DeferCleanup(func() { restartWALBytes = saved })
		path := filepath.Join(GinkgoT().TempDir(), "events.db")
		store, err := Open(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = store.Close() })

		// Each round of 8,000 events writes some 40 MB of frames to the WAL.
		const appenders, appends = 16, 500
		data := make([]byte, 200)
		appendRound := func() int64 {
			var wg sync.WaitGroup
			for a := range appenders {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					stream := fmt.Sprintf("x1.chat-%d", a)
					for range appends {
						e := es.EventData{ID: uuid.NewString(), Type: "Tested", Data: data, Metadata: es.Metadata{Tenant: "x1"}}
						_, err := store.Append(context.Background(), stream, es.Any, []es.EventData{e})
						Expect(err).NotTo(HaveOccurred())
					}
				}()
			}
			wg.Wait()
			info, err := os.Stat(path + "-wal")
			Expect(err).NotTo(HaveOccurred())
			return info.Size()
		}
		first := appendRound()
		Expect(appendRound()).To(BeNumerically("<", first+16<<20))
		Expect(appendRound()).To(BeNumerically("<", first+16<<20))

		var after uint64
		for {
			evs, err := store.ReadAll(context.Background(), after, 0)
			Expect(err).NotTo(HaveOccurred())
			if len(evs) == 0 {
				break
			}
			Expect(evs[0].Position).To(Equal(after + 1))
			after = evs[len(evs)-1].Position
		}
		Expect(after).To(Equal(uint64(3 * appenders * appends)))
	})
})
