// Package auditlog writes and reads the audit export (docs/api-audit.md):
// one event per line, in position order, then a trailer line with the
// SHA-256 of every byte before it.
package auditlog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/eventchat/eventchat/domain/es"
)

// Event is one event as auditors see it: the stored data as is.
type Event struct {
	// ID is the event's id: read models derive ids from it (notices).
	ID       string          `json:"id"`
	Stream   string          `json:"stream"`
	Revision uint64          `json:"revision"`
	Position uint64          `json:"position"`
	Type     string          `json:"type"`
	Time     time.Time       `json:"time"`
	Actor    string          `json:"actor"`
	Data     json.RawMessage `json:"data"`
}

// EventOf is r as auditors see it.
func EventOf(r es.RecordedEvent) Event {
	return Event{ID: r.ID, Stream: r.Stream, Revision: r.Revision, Position: r.Position, Type: r.Type,
		Time: r.Metadata.Time, Actor: r.Metadata.Actor, Data: r.Data}
}

// Recorded is e as the log stores it, with what metadata the export keeps.
func (e Event) Recorded() es.RecordedEvent {
	sn, _ := es.ParseStream(e.Stream)
	return es.RecordedEvent{ID: e.ID, Stream: e.Stream, Revision: e.Revision, Position: e.Position, Type: e.Type,
		Data: e.Data, Metadata: es.Metadata{Tenant: sn.Tenant, Actor: e.Actor, Time: e.Time}}
}

// Trailer is an export's last line.
type Trailer struct {
	Checksum string `json:"checksum"`
	Count    int    `json:"count"`
	Tenant   string `json:"tenant"`
	Head     uint64 `json:"head"`
}

const checksumPrefix = "sha256:"

// Writer writes an export.
type Writer struct {
	w     io.Writer
	h     hash.Hash
	count int
	line  bytes.Buffer
}

// NewWriter returns a writer of an export to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, h: sha256.New()} }

// Write writes one event's line; events come in position order.
func (w *Writer) Write(r es.RecordedEvent) error {
	w.line.Reset()
	if err := json.NewEncoder(&w.line).Encode(EventOf(r)); err != nil {
		return fmt.Errorf("auditlog: encode event %d: %w", r.Position, err)
	}
	w.h.Write(w.line.Bytes())
	w.count++
	_, err := w.w.Write(w.line.Bytes())
	return err
}

// Close writes the trailer: the export is of tenant, made when the log's
// head was head.
func (w *Writer) Close(tenant string, head uint64) error {
	return json.NewEncoder(w.w).Encode(Trailer{
		Checksum: checksumPrefix + hex.EncodeToString(w.h.Sum(nil)), Count: w.count, Tenant: tenant, Head: head,
	})
}

// Export is a read export.
type Export struct {
	Trailer
	Events []es.RecordedEvent
}

// Errors of Read.
var (
	ErrChecksum  = errors.New("auditlog: export checksum does not match")
	ErrMalformed = errors.New("auditlog: not an export")
)

// Read reads a whole export, its checksum checked before any line is
// decoded.
func Read(r io.Reader) (Export, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return Export{}, err
	}
	body := bytes.TrimSuffix(raw, []byte("\n"))
	cut := bytes.LastIndexByte(body, '\n') + 1
	var x Export
	if err := json.Unmarshal(body[cut:], &x.Trailer); err != nil || x.Checksum == "" || x.Tenant == "" {
		return Export{}, fmt.Errorf("%w: its last line is no trailer", ErrMalformed)
	}
	sum := sha256.Sum256(raw[:cut])
	if x.Checksum != checksumPrefix+hex.EncodeToString(sum[:]) {
		return Export{}, ErrChecksum
	}
	lines := bytes.Split(raw[:cut], []byte("\n"))
	lines = lines[:len(lines)-1] // what follows the last "\n" is the trailer
	if len(lines) != x.Count {
		return Export{}, fmt.Errorf("%w: %d events, the trailer counts %d", ErrMalformed, len(lines), x.Count)
	}
	x.Events = make([]es.RecordedEvent, 0, len(lines))
	for i, line := range lines {
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return Export{}, fmt.Errorf("%w: line %d: %v", ErrMalformed, i+1, err)
		}
		if _, err := es.ParseStream(e.Stream); err != nil || e.Type == "" || e.Position == 0 {
			return Export{}, fmt.Errorf("%w: line %d is no event", ErrMalformed, i+1)
		}
		x.Events = append(x.Events, e.Recorded())
	}
	return x, nil
}
