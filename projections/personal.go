package projections

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/personal"
)

// Personal keeps each member's favourites, stickers, mass messages and
// mass-send setting, and tells the member's connections when its stickers
// change (43).
type Personal struct{}

// Name is the persisted checkpoint key.
func (Personal) Name() string { return "personal.v1" }

// stickersChanged is the push 43: the client reloads its sticker list.
type stickersChanged struct {
	Operation string   `json:"operationType"` // Add | Del
	IDs       []string `json:"ids"`
	Position  uint64   `json:"position"`
}

// Project folds the personal events in log order: puts and deletes reach
// the store in the order of their events.
func (Personal) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var deltas []Delta
	put := func(env Envelope, member, kind, id string, at int64, v any) error {
		doc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return tx.PutPersonalItems(ctx, []PersonalItem{{Tenant: env.Tenant, Member: member, Kind: kind, ID: id, At: at, Doc: doc}})
	}
	for _, env := range events {
		var err error
		switch e := env.Event.(type) {
		case *personal.FavouriteAdded:
			err = put(env, e.Member, personal.KindFavourite, e.Favourite.ID, e.Favourite.At, erasedFavourite(e.Favourite))
		case *personal.FavouriteEdited:
			err = put(env, e.Member, personal.KindFavourite, e.Favourite.ID, e.Favourite.At, erasedFavourite(e.Favourite))
		case *personal.FavouritesDeleted:
			err = tx.DeletePersonalItems(ctx, e.Member, personal.KindFavourite, e.IDs)
		case *personal.StickerAdded:
			err = put(env, e.Member, personal.KindSticker, e.Sticker.ID, e.Sticker.At, e.Sticker)
			deltas = append(deltas, delta(env, CmdStickers, stickersChanged{Operation: "Add", IDs: []string{e.Sticker.ID}, Position: env.Position}, e.Member))
		case *personal.StickersDeleted:
			err = tx.DeletePersonalItems(ctx, e.Member, personal.KindSticker, e.IDs)
			deltas = append(deltas, delta(env, CmdStickers, stickersChanged{Operation: "Del", IDs: e.IDs, Position: env.Position}, e.Member))
		case *personal.BatchSent:
			b := e.Batch
			b.Content = erasedAs(b.Content, ErasedContent)
			err = put(env, e.Member, personal.KindBatch, b.ID, b.At, b)
		case *personal.BatchesCleared:
			err = tx.DeletePersonalItems(ctx, e.Member, personal.KindBatch, nil)
		case *personal.MessagesDelivered:
			err = put(env, e.Member, personal.KindDelivery, e.Session, e.At, delivered{Position: e.Position})
		case *personal.BatchSendSet:
			err = put(env, e.Member, personal.KindSetting, personal.SettingBatchSend, e.At, batchSetting{Value: e.Setting})
		case *member.Erased:
			// Its own spaces, which nobody else sees, go with it.
			if env.Stream.Category == es.CategoryMember {
				err = errors.Join(tx.DeletePersonalItems(ctx, env.Stream.ID, personal.KindFavourite, nil),
					tx.DeletePersonalItems(ctx, env.Stream.ID, personal.KindBatch, nil))
			}
		case *personal.PreferencesSet:
			err = put(env, e.Member, personal.KindSetting, personal.SettingPreferences, e.At, e.Preferences)
			deltas = append(deltas, delta(env, CmdProfile, userInfoChanged{MemberID: e.Member, Position: env.Position}, e.Member))
		}
		if err != nil {
			return nil, err
		}
	}
	return deltas, nil
}

// batchSetting is the document of the mass-send setting.
type batchSetting struct {
	Value string `json:"value"`
}

// delivered is the document of a device's delivered position.
type delivered struct {
	Position uint64 `json:"position"`
}

// Delivered returns the position up to which the device of the login
// session of member of tenant has acknowledged the messages of its chats,
// 0 when it never did. It first waits for the read models to reach the
// log's head.
func (l Lookups) Delivered(ctx context.Context, tenant, member, session string) (uint64, error) {
	l.caughtUp(ctx)
	items, err := l.Q.PersonalItemsByID(ctx, Viewer{Tenant: tenant, Member: member}, personal.KindDelivery, []string{session})
	if err != nil || len(items) == 0 {
		return 0, err
	}
	var d delivered
	err = json.Unmarshal(items[0].Doc, &d)
	return d.Position, err
}

// MessagePositions returns the log positions of the messages among ids
// that member of tenant sees, by id.
func (l Lookups) MessagePositions(ctx context.Context, tenant, member string, ids []string) (map[string]uint64, error) {
	l.caughtUp(ctx)
	ms, err := l.Q.VisibleMessages(ctx, Viewer{Tenant: tenant, Member: member}, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]uint64, len(ms))
	for _, m := range ms {
		out[m.ID] = m.Position
	}
	return out, nil
}

// Head is the position of the log's last event.
func (l Lookups) Head(ctx context.Context) (uint64, error) {
	if l.Log == nil {
		return 0, nil
	}
	return l.Log.Head(ctx)
}

// PersonalDocs returns the documents of the items of kind among ids of
// member of tenant, in the order of ids. It first waits for the read
// models to reach the log's head, so that a command never acts on an item
// the member has already deleted or changed.
func (l Lookups) PersonalDocs(ctx context.Context, tenant, member, kind string, ids []string) ([][]byte, error) {
	l.caughtUp(ctx)
	items, err := l.Q.PersonalItemsByID(ctx, Viewer{Tenant: tenant, Member: member}, kind, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(items))
	for i, it := range items {
		out[i] = it.Doc
	}
	return out, nil
}

// PersonalCount counts member's items of kind.
func (l Lookups) PersonalCount(ctx context.Context, member, kind string) (int, error) {
	_, n, err := l.Q.PersonalItems(ctx, member, kind, 1, 1)
	return n, err
}

// KeepsSticker reports whether one of member's stickers is the file at
// filePath. It first waits for the read models to reach the log's head, so
// that a sticker just added counts and one just deleted does not.
func (l Lookups) KeepsSticker(ctx context.Context, member, filePath string) (bool, error) {
	l.caughtUp(ctx)
	items, _, err := l.Q.PersonalItems(ctx, member, personal.KindSticker, 1, -1)
	if err != nil {
		return false, err
	}
	for _, it := range items {
		var s personal.Sticker
		if err := json.Unmarshal(it.Doc, &s); err != nil {
			return false, fmt.Errorf("sticker %s of %s: %w", it.ID, member, err)
		}
		if s.FilePath == filePath {
			return true, nil
		}
	}
	return false, nil
}

// BatchSendSetting returns the mass-send setting of member of tenant:
// Enable unless it turned it off. It first waits for the read models to
// reach the log's head, so that a change the member has just made counts.
func (l Lookups) BatchSendSetting(ctx context.Context, tenant, member string) (string, error) {
	l.caughtUp(ctx)
	items, err := l.Q.PersonalItemsByID(ctx, Viewer{Tenant: tenant, Member: member}, personal.KindSetting, []string{personal.SettingBatchSend})
	if err != nil || len(items) == 0 {
		return personal.Enable, err
	}
	var s batchSetting
	if err := json.Unmarshal(items[0].Doc, &s); err != nil || s.Value == "" {
		return personal.Enable, err
	}
	return s.Value, nil
}
