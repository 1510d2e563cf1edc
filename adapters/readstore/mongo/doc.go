// Package mongoread is the MongoDB read store: every read model in one
// database, one collection per model, indexes created at Open.
//
// That database is the current generation's: a rebuild folds a new
// generation's database beside it and switches a generation document that
// every handle follows (see generation.go and shadow.go). The journal and
// the lease below are per generation: a swap carries the lease to the new
// database and leaves the old one's with a marker nobody takes over.
//
// MongoDB transactions need a replica set, which a single server or
// FerretDB lacks, so Update does not use them. fn writes into an in-memory
// buffer that the Tx reads through first (a batch reads its own writes);
// when fn fails the buffer is dropped and nothing is written. At commit the
// buffer is flushed as a redo journal:
//
//  1. the batch's writes go into the journal collection as entries;
//  2. the batch is named in the projection lease's document, by a
//     single-document update (atomic in MongoDB) that matches only while
//     this handle's owner holds the lease: from here on the batch is
//     committed; a node that lost the lease gets ErrLeaseLost instead;
//  3. the writes are applied collection by collection, the checkpoints
//     last: unordered bulk upserts keyed by document id on MongoDB, chunked
//     deletes and inserts by id on FerretDB (see apply), each bulk write
//     with the deadline a third of the lease before its end (see fenced);
//  4. the mark and the entries are deleted.
//
// Every journaled write sets absolute values (a document replaced whole, a
// message inserted only when absent, a message's status set to Read), so
// applying it twice is the same as applying it once. A crash before step 2
// leaves the store as before the batch (stray entries are deleted by the
// next holder) and the projectors replay the batch from their checkpoints.
// A crash in step 3 or 4 leaves the mark: the first Update of a handle, and
// the next holder of the lease at its first Checkpoints or Update, apply the
// journaled batch again before anything else, so the read models and checkpoints end up
// exactly as if the batch had committed at once. A handle never touches the
// journal of a lease another owner holds.
//
// This matters for counters: a projector loads a session, adds to its
// unread count and writes it back. Without the journal, a crash after the
// sessions were written but before the checkpoints would let the replay
// load the already incremented session and count the same messages twice;
// with it, the replay never happens for a committed batch, and an
// uncommitted batch wrote nothing.
//
// Queries are not isolated from a flush in progress: they may see some of a
// batch's writes before the others, as with any non-transactional MongoDB
// reader. A snapshot (audit verify) is isolated by holding the lock Update
// takes (see Snapshot).
package mongoread
