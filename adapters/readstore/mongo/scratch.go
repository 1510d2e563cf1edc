package mongoread

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/eventchat/eventchat/projections"
)

var _ projections.ScratchStores = (*Store)(nil)

// scratchID is what CreateScratch accepts as an id: it ends a database name.
var scratchID = regexp.MustCompile(`^[0-9a-z]{1,16}$`)

// CreateScratch opens a new, empty store in the database base_verify_<id>,
// with the indexes Open creates, for a verify to fold a tenant into and
// compare with this one. It shares the store's connection. A scratch store
// a stopped server left behind is dropped by Open once it is a day old.
func (s *Store) CreateScratch(ctx context.Context, id string) (projections.ReadStore, error) {
	if s.fixed {
		return nil, fmt.Errorf("mongoread: a shadow or a scratch store makes no scratch store")
	}
	if !scratchID.MatchString(id) {
		return nil, fmt.Errorf("mongoread: a scratch store's id is 1 to 16 lowercase letters and digits, not %q", id)
	}
	if s.closed.Load() {
		return nil, errClosed
	}
	sc := s.fixedStore(s.base+scratchSuffix+id, 0)
	// An id is random: a database of that name is a leftover.
	if err := sc.database().Drop(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: clear the scratch store %s: %w", sc.database().Name(), err)
	}
	info := infoDoc{ID: infoScratch, Base: s.base, Schema: schemaVersion, CreatedAt: time.Now().UnixNano()}
	if err := writeInfo(ctx, sc, info); err != nil {
		return nil, err
	}
	if err := sc.ensureAllIndexes(ctx); err != nil {
		return nil, fmt.Errorf("mongoread: scratch store %s: %w", sc.database().Name(), err)
	}
	return sc, nil
}

// DropScratch closes a scratch store CreateScratch returned and drops its
// database.
func (s *Store) DropScratch(ctx context.Context, store projections.ReadStore) error {
	sc, ok := store.(*Store)
	if !ok || !sc.fixed || sc.client != s.client || !strings.HasPrefix(sc.database().Name(), s.base+scratchSuffix) {
		return fmt.Errorf("mongoread: %T is not a scratch store of %s", store, s.base)
	}
	if err := sc.Close(ctx); err != nil {
		return err
	}
	if err := sc.database().Drop(ctx); err != nil {
		return fmt.Errorf("mongoread: drop the scratch store %s: %w", sc.database().Name(), err)
	}
	return nil
}
