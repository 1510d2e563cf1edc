package audit

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"time"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Entry is one event of a tenant's history as the events page and the
// export show it: Data is the stored JSON as is, but for credentials.
type Entry struct {
	// ID is the event's id: read models derive ids from it (notices), so an
	// imported export needs it to build the same read models.
	ID       string          `json:"id"`
	Stream   string          `json:"stream"`
	Revision uint64          `json:"revision"`
	Position uint64          `json:"position"`
	Type     string          `json:"type"`
	Time     int64           `json:"time"` // Unix milliseconds of the metadata time
	Actor    string          `json:"actor"`
	Data     json.RawMessage `json:"data"`
}

// EntryOf shows a stored event.
func EntryOf(r es.RecordedEvent) Entry {
	return Entry{ID: r.ID, Stream: r.Stream, Revision: r.Revision, Position: r.Position, Type: r.Type,
		Time: r.Metadata.Time.UnixMilli(), Actor: r.Metadata.Actor, Data: redact(r.Data)}
}

// Recorded is the event e shows, with the metadata an export keeps; an
// entry of no tenant stream is not an event of an export.
func (e Entry) Recorded() (es.RecordedEvent, error) {
	sn, err := es.ParseStream(e.Stream)
	if err != nil || e.Type == "" || e.Position == 0 {
		return es.RecordedEvent{}, fault.New(fault.Invalid, MsgExportMalformed)
	}
	return es.RecordedEvent{ID: e.ID, Stream: e.Stream, Revision: e.Revision, Position: e.Position, Type: e.Type,
		Data: e.Data, Metadata: es.Metadata{Tenant: sn.Tenant, Actor: e.Actor, Time: time.UnixMilli(e.Time)}}, nil
}

// credentialFields are the fields of stored events that hold password and
// SMS code hashes. An auditor reads what members did, not what would help
// guess their credentials offline; no read model folds these fields, so a
// replayed export builds the same read models.
var credentialFields = []string{"passwordHash", "codeHash"}

// Redacted replaces a credential field's value.
const Redacted = "[redacted]"

func redact(data json.RawMessage) json.RawMessage {
	hit := false
	for _, f := range credentialFields {
		hit = hit || bytes.Contains(data, []byte(`"`+f+`"`))
	}
	if !hit {
		return data
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return data
	}
	for _, f := range credentialFields {
		if _, ok := fields[f]; ok {
			fields[f] = json.RawMessage(`"` + Redacted + `"`)
		}
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return data
	}
	return out
}

// Trailer is an export's last line. Checksum is "sha256:<hex>" of every
// byte before it.
type Trailer struct {
	Checksum string `json:"checksum"`
	Count    int    `json:"count"`
	Tenant   string `json:"tenant"`
	Head     uint64 `json:"head"` // the log's head when the export started
}

// MsgExportChecksum refuses an export whose checksum line is missing or
// does not match its lines.
const MsgExportChecksum = "export checksum does not match"

// MsgExportMalformed refuses a file whose lines are not an export's.
const MsgExportMalformed = "this is not an audit export: one event per line, then a checksum line"

const checksumPrefix = "sha256:"

// ExportWriter writes an export: one Entry per line, then the trailer.
type ExportWriter struct {
	w     io.Writer
	sum   hash.Hash
	count int
}

// NewExportWriter writes an export to w.
func NewExportWriter(w io.Writer) *ExportWriter {
	return &ExportWriter{w: w, sum: sha256.New()}
}

// Write writes one entry's line.
func (x *ExportWriter) Write(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	x.sum.Write(line)
	x.count++
	_, err = x.w.Write(line)
	return err
}

// Close writes the trailer of tenant's export taken at head.
func (x *ExportWriter) Close(tenant string, head uint64) error {
	line, err := json.Marshal(Trailer{Checksum: x.checksum(), Count: x.count, Tenant: tenant, Head: head})
	if err != nil {
		return err
	}
	_, err = x.w.Write(append(line, '\n'))
	return err
}

func (x *ExportWriter) checksum() string { return checksumPrefix + hex.EncodeToString(x.sum.Sum(nil)) }

// ReadExport reads an export, giving each entry to each in order, and
// checks its trailer: a missing trailer, a wrong checksum or count, or a
// line after the trailer fail with MsgExportChecksum (Invalid); a line that
// is not an entry fails with MsgExportMalformed.
func ReadExport(r io.Reader, each func(Entry) error) (Trailer, error) {
	br := bufio.NewReader(r)
	x := &ExportWriter{sum: sha256.New()}
	var trailer *Trailer
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if trailer != nil || line[len(line)-1] != '\n' {
				return Trailer{}, fault.New(fault.Invalid, MsgExportChecksum)
			}
			if bytes.HasPrefix(line, []byte(`{"checksum":`)) {
				trailer = &Trailer{}
				if json.Unmarshal(line, trailer) != nil {
					return Trailer{}, fault.New(fault.Invalid, MsgExportChecksum)
				}
				continue
			}
			var e Entry
			if json.Unmarshal(line, &e) != nil {
				return Trailer{}, fault.New(fault.Invalid, MsgExportMalformed)
			}
			x.sum.Write(line)
			x.count++
			if err := each(e); err != nil {
				return Trailer{}, err
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Trailer{}, err
		}
	}
	if trailer == nil || trailer.Checksum != x.checksum() || trailer.Count != x.count {
		return Trailer{}, fault.New(fault.Invalid, MsgExportChecksum)
	}
	return *trailer, nil
}
