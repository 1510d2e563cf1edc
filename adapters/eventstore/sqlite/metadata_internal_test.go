package sqlitestore

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/es"
)

var _ = Describe("Stored metadata", func() {
	at := time.Date(2026, 3, 1, 12, 30, 45, 123456789, time.UTC)

	It("reads what encodeEvent writes as encoding/json reads it", func() {
		for _, m := range []es.Metadata{
			{Tenant: "t1", Time: at},
			{Tenant: "t1", Actor: "m-1", CorrelationID: "c", CausationID: "d", ClientUUID: "u", Time: at},
			{Tenant: "t1", ClientUUID: "u", Time: at.Truncate(time.Second)},
			{Tenant: "", Actor: "a <b> & \"c\" \\ é 日本", Time: time.Time{}},
			{Tenant: "t\n2", CausationID: "\u2028", Time: at},
		} {
			ev, err := encodeEvent(es.EventData{ID: "x", Type: "T", Data: []byte("{}"), Metadata: m})
			Expect(err).NotTo(HaveOccurred())
			var got, want es.Metadata
			Expect(decodeMetadata([]byte(ev.metaJSON), &got)).To(Succeed())
			Expect(json.Unmarshal([]byte(ev.metaJSON), &want)).To(Succeed())
			Expect(got).To(Equal(want))
			Expect(got).To(Equal(ev.meta))
		}
	})

	It("reads metadata in any other form as encoding/json does, errors included", func() {
		for _, raw := range []string{
			`{"time":"2026-03-01T12:30:45Z","tenant":"t1"}`,
			`{"tenant":"t1","actor":"","time":"2026-03-01T12:30:45+02:00"}`,
			`{"Tenant":"t1","time":"2026-03-01T12:30:45Z"}`,
			`{"tenant":"t1","extra":1,"time":"2026-03-01T12:30:45Z"}`,
			`{"tenant":"t1","time":null}`,
			` {"tenant":"t1","time":"2026-03-01T12:30:45Z"}`,
			`{"tenant":"t` + "\xff" + `","time":"2026-03-01T12:30:45Z"}`,
			`{"tenant":"t1","time":"yesterday"}`,
			`{"tenant":"t1","time":"2026-03-01T12:30:45Z"`,
			`{"tenant":"t1","time":"2026-03-01T12:30:45Z"}x`,
			``,
		} {
			var got, want es.Metadata
			gotErr := decodeMetadata([]byte(raw), &got)
			wantErr := json.Unmarshal([]byte(raw), &want)
			Expect(gotErr != nil).To(Equal(wantErr != nil), raw)
			if wantErr == nil {
				Expect(got).To(Equal(want), raw)
			}
		}
	})
})
