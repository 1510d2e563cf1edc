// Package esdb is the event store on EventStoreDB, through the official
// gRPC client. It has the methods and semantics of the embedded SQLite store
// (see adapters/eventstore/storetest for the contract).
//
// # Positions
//
// A RecordedEvent's Position is the commit position of the event in $all:
// a byte offset in the server's log, strictly increasing, with gaps. ReadAll,
// Head, Last and SubscribeAll see only the application's streams
// (<tenant>.<category>-<id>): system streams ($...) and the adapter's own
// streams (_esdb....) are skipped. A read or subscription after a position
// that is no record boundary is refused by the server; the adapter passes
// that on as es.ErrInvalidPosition, as it does a read past the last event.
// An append over the server's MaxAppendSize (1 MiB by default) is refused
// with es.ErrAppendTooLarge.
//
// # Idempotency by event id
//
// EventStoreDB recognises a retried event id only while the id is in its
// recent-writes cache, and the contract asks for a duplicate to be answered
// with the first append's result forever, after restarts and millions of
// appends. So the adapter keeps its own record: one tiny stream per event id,
// "_esdb.id-<uuid>", whose first event holds where that id was stored
// (stream, revision, position). Looking an id up is one read of one short
// stream whatever the size of the log or of the target stream, which is why
// this was chosen over scanning the target stream (linear in its length) or
// an index stream per id prefix (linear in the appends sharing the prefix).
// The price is one small append per event, made concurrently.
//
// An append, under a lock per target stream (appends to one stream are
// serialised by EventStoreDB anyway), goes:
//
//  1. repair: if the stream's last event has no record (a crash hit between
//     the append and its records), record the stream's unrecorded tail,
//     walking back from the end to the first recorded event;
//  2. look every id up: all known is a duplicate answered with the record of
//     the last id, some known is es.ErrPartialDuplicate;
//  3. append with the expected revision (wrong expected version becomes
//     es.ErrConcurrency), read the new events back for their positions;
//  4. write the records, the last event's record after all the others, so
//     that "the last event is recorded" implies "the whole stream is".
//
// Record events have ids derived from the event id (UUID v5), so rewriting a
// record is itself idempotent. The per-stream lock makes "exactly one first
// append" hold within one process; writers in several processes appending the
// same ids at the same moment fall back on EventStoreDB's own rules: with
// the same expected revision, or with Any while the ids are in its cache of
// recent writes, the second is answered as a duplicate of the first; with a
// revision the first has moved past it fails as a concurrency error. Tenant names starting with "_" are reserved by the adapter.
package esdb
