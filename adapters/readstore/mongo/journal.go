package mongoread

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/eventchat/eventchat/projections"
)

// Kinds of journaled write. Each sets absolute values: applying it again
// changes nothing.
const (
	opReplace  = "replace" // replace the document with d, or insert it
	opInsert   = "insert"  // insert d unless a document has its id
	opMarkRead = "read"    // set the status of the message d._id Read if Unread
	opDelete   = "delete"  // delete the documents matching d (see deleteFilter), before the other writes
)

// op is one journaled write of document d to collection c.
type op struct {
	Coll string   `bson:"c"`
	Kind string   `bson:"k"`
	Doc  bson.Raw `bson:"d"`
}

type journalEntry struct {
	ID    string `bson:"_id"`
	Batch string `bson:"batch"`
	N     int    `bson:"n"`
	Ops   []op   `bson:"ops"`
}

// leaseDoc is the projection lease and the journal's commit mark in one
// document: a batch commits only while its writer holds the lease, and a
// new holder finds the batch its predecessor committed but did not finish.
type leaseDoc struct {
	ID    string `bson:"_id"`
	Owner string `bson:"owner"`           // "" when free
	Until int64  `bson:"until"`           // Unix nanoseconds
	Batch string `bson:"batch,omitempty"` // the committed batch not yet cleared
}

const leaseID = "projections"

const (
	// entryBytes keeps a journal entry well under MongoDB's 16 MiB document
	// limit.
	entryBytes = 4 << 20
	// bulkOps bounds one bulk write.
	bulkOps = 1000
)

// commit journals ops, marks the batch committed, applies it and clears
// the journal.
func (s *Store) commit(ctx context.Context, ops []op) error {
	if len(ops) == 0 {
		return nil
	}
	batch, err := s.writeJournal(ctx, ops)
	if err != nil {
		return err
	}
	// Whether the mark was written is unknown once its write is sent:
	// recovery looks.
	s.unflushed = true
	if err := s.markCommitted(ctx, batch); err != nil {
		return err
	}
	if err := s.apply(ctx, ops); err != nil {
		return err
	}
	return s.clearJournal(ctx, batch)
}

// writeJournal stores ops as the entries of a new batch and returns its id.
func (s *Store) writeJournal(ctx context.Context, ops []op) (string, error) {
	batch := bson.NewObjectID().Hex()
	var entries []any
	for from := 0; from < len(ops); {
		to, size := from, 0
		for to < len(ops) && (to == from || size+len(ops[to].Doc) <= entryBytes) {
			size += len(ops[to].Doc)
			to++
		}
		entries = append(entries, journalEntry{
			ID: fmt.Sprintf("%s-%06d", batch, len(entries)), Batch: batch, N: len(entries), Ops: ops[from:to],
		})
		from = to
	}
	journal := s.coll(journalColl)
	if _, err := journal.InsertMany(ctx, entries); err != nil {
		_, derr := journal.DeleteMany(context.WithoutCancel(ctx), bson.D{{Key: "batch", Value: batch}})
		return "", errors.Join(fmt.Errorf("mongoread: journal batch: %w", err), derr)
	}
	return batch, nil
}

// markCommitted writes the mark that commits batch, in the lease document
// and only while this handle's lease owner holds it ("" for a free lease,
// whose document it creates if need be).
func (s *Store) markCommitted(ctx context.Context, batch string) error {
	_, err := s.coll(leaseColl).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: leaseID}, {Key: "owner", Value: s.owner()}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "batch", Value: batch}}}}, options.UpdateOne().SetUpsert(true))
	if mongo.IsDuplicateKeyError(err) {
		// No match, and the upsert met the document another owner holds.
		return projections.ErrLeaseLost
	}
	if err != nil {
		return fmt.Errorf("mongoread: commit batch: %w", err)
	}
	return nil
}

// recover applies the committed batch of the journal again, if any, and
// drops the entries of batches never committed; only as the lease's
// holder, or when it is free: another holder's journal is its own.
func (s *Store) recover(ctx context.Context) error {
	var lease leaseDoc
	found, err := s.findOne(ctx, leaseColl, bson.D{{Key: "_id", Value: leaseID}}, &lease)
	if err != nil {
		return fmt.Errorf("mongoread: read journal mark: %w", err)
	}
	if found && lease.Owner != s.owner() {
		return projections.ErrLeaseLost
	}
	if lease.Batch != "" {
		var entries []journalEntry
		err := s.findAll(ctx, journalColl, bson.D{{Key: "batch", Value: lease.Batch}},
			options.Find().SetSort(bson.D{{Key: "n", Value: 1}}), &entries)
		if err != nil {
			return fmt.Errorf("mongoread: read journal: %w", err)
		}
		var ops []op
		for _, e := range entries {
			ops = append(ops, e.Ops...)
		}
		if err := s.apply(ctx, ops); err != nil {
			return err
		}
	}
	if _, err := s.coll(journalColl).DeleteMany(ctx, bson.D{}); err != nil {
		return fmt.Errorf("mongoread: clear journal: %w", err)
	}
	return s.clearJournal(ctx, lease.Batch)
}

// clearJournal removes batch's mark and entries.
func (s *Store) clearJournal(ctx context.Context, batch string) error {
	if batch != "" {
		_, err := s.coll(leaseColl).UpdateOne(ctx,
			bson.D{{Key: "_id", Value: leaseID}, {Key: "batch", Value: batch}},
			bson.D{{Key: "$unset", Value: bson.D{{Key: "batch", Value: ""}}}})
		if err != nil {
			return fmt.Errorf("mongoread: clear journal mark: %w", err)
		}
		if _, err := s.coll(journalColl).DeleteMany(ctx, bson.D{{Key: "batch", Value: batch}}); err != nil {
			return fmt.Errorf("mongoread: clear journal: %w", err)
		}
	}
	s.unflushed = false
	return nil
}

// apply writes ops collection by collection, the checkpoints last.
//
// FerretDB 1.24 on SQLite scans the whole collection for every write that
// filters one document by id (an upsert, a replace, a delete), so a batch
// of those costs O(batch x collection): 1,000 upserts into 5,000 documents
// take 6 s. Multi-document writes by a list of ids do not, so on FerretDB
// documents are replaced by one delete and one insert of a whole chunk (a
// query may miss a document between the two). On MongoDB they are upserted
// by id in unordered bulk writes. The few checkpoints are always upserted.
func (s *Store) apply(ctx context.Context, ops []op) error {
	type group struct{ replace, insert, markRead []bson.Raw }
	var deletes []op
	groups := map[string]*group{}
	var order []string
	for _, o := range ops {
		g := groups[o.Coll]
		if g == nil {
			g = &group{}
			groups[o.Coll] = g
			if o.Coll != checkpointsColl {
				order = append(order, o.Coll)
			}
		}
		switch o.Kind {
		case opReplace:
			g.replace = append(g.replace, o.Doc)
		case opInsert:
			g.insert = append(g.insert, o.Doc)
		case opMarkRead:
			g.markRead = append(g.markRead, o.Doc)
		case opDelete:
			deletes = append(deletes, o)
		default:
			return fmt.Errorf("mongoread: journal holds an unknown write %q", o.Kind)
		}
	}
	for _, d := range deletes {
		filter, err := deleteFilter(d.Doc)
		if err != nil {
			return err
		}
		err = s.fenced(ctx, func(ctx context.Context) error {
			_, err := s.coll(d.Coll).DeleteMany(ctx, filter)
			return err
		})
		if err != nil {
			return fmt.Errorf("mongoread: delete from %s: %w", d.Coll, err)
		}
	}
	for _, coll := range order {
		if err := s.applyGroup(ctx, coll, groups[coll].replace, groups[coll].insert, groups[coll].markRead); err != nil {
			return fmt.Errorf("mongoread: write %s: %w", coll, err)
		}
	}
	if g := groups[checkpointsColl]; g != nil {
		err := s.fenced(ctx, func(ctx context.Context) error { return s.upsert(ctx, checkpointsColl, g.replace) })
		if err != nil {
			return fmt.Errorf("mongoread: write checkpoints: %w", err)
		}
	}
	return nil
}

// applyGroup writes the documents of one collection, each bulk write
// fenced by the lease.
func (s *Store) applyGroup(ctx context.Context, coll string, replace, insert, markRead []bson.Raw) error {
	c := s.coll(coll)
	for from := 0; from < len(replace); from += bulkOps {
		docs := replace[from:min(from+bulkOps, len(replace))]
		err := s.fenced(ctx, func(ctx context.Context) error {
			if !s.ferretDB {
				return s.upsert(ctx, coll, docs)
			}
			if _, err := c.DeleteMany(ctx, idIn(docs)); err != nil {
				return err
			}
			return insertMissing(ctx, c, docs)
		})
		if err != nil {
			return err
		}
	}
	for from := 0; from < len(insert); from += bulkOps {
		docs := insert[from:min(from+bulkOps, len(insert))]
		if err := s.fenced(ctx, func(ctx context.Context) error { return insertMissing(ctx, c, docs) }); err != nil {
			return err
		}
	}
	for from := 0; from < len(markRead); from += bulkOps {
		filter := append(idIn(markRead[from:min(from+bulkOps, len(markRead))]),
			bson.E{Key: "status", Value: projections.StatusUnread})
		update := bson.D{{Key: "$set", Value: bson.D{{Key: "status", Value: projections.StatusRead}}}}
		err := s.fenced(ctx, func(ctx context.Context) error {
			_, err := c.UpdateMany(ctx, filter, update)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// idIn filters the documents with the ids of docs.
func idIn(docs []bson.Raw) bson.D {
	ids := make(bson.A, len(docs))
	for i, d := range docs {
		ids[i] = d.Lookup("_id")
	}
	return bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}}
}

// insertMissing inserts the docs whose id no stored document has: the
// others fail as duplicates, which an unordered insert skips.
func insertMissing(ctx context.Context, c *mongo.Collection, docs []bson.Raw) error {
	batch := make([]any, len(docs))
	for i, d := range docs {
		batch[i] = d
	}
	_, err := c.InsertMany(ctx, batch, options.InsertMany().SetOrdered(false))
	var bulk mongo.BulkWriteException
	if !errors.As(err, &bulk) || bulk.WriteConcernError != nil {
		return err
	}
	for _, we := range bulk.WriteErrors {
		if we.Code != duplicateKey {
			return err
		}
	}
	return nil
}

// duplicateKey is MongoDB's error code for a duplicate key.
const duplicateKey = 11000

// upsert replaces or inserts each of docs by id.
func (s *Store) upsert(ctx context.Context, coll string, docs []bson.Raw) error {
	models := make([]mongo.WriteModel, len(docs))
	for i, d := range docs {
		models[i] = mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: d.Lookup("_id")}}).
			SetReplacement(d).SetUpsert(true)
	}
	_, err := s.coll(coll).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	return err
}

// deleteFilter turns the document of an opDelete into its filter: each
// field must equal the document's value or, for an array, one of its
// values. (A stored document may not hold the operator "$in" itself.)
func deleteFilter(d bson.Raw) (bson.D, error) {
	elems, err := d.Elements()
	if err != nil {
		return nil, fmt.Errorf("mongoread: journal holds a malformed delete: %w", err)
	}
	filter := make(bson.D, 0, len(elems))
	for _, e := range elems {
		v := e.Value()
		if v.Type == bson.TypeArray {
			filter = append(filter, bson.E{Key: e.Key(), Value: bson.D{{Key: "$in", Value: v}}})
		} else {
			filter = append(filter, bson.E{Key: e.Key(), Value: v})
		}
	}
	return filter, nil
}
