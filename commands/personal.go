package commands

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
)

// Personal finds a member's personal items (favourites, stickers, mass
// messages, settings) in the read models.
type Personal interface {
	// PersonalDocs returns the JSON documents of the items of kind among
	// ids of member of tenant, in the order of ids; missing ones are left
	// out.
	PersonalDocs(ctx context.Context, tenant, member, kind string, ids []string) ([][]byte, error)
	// PersonalCount counts member's items of kind.
	PersonalCount(ctx context.Context, member, kind string) (int, error)
	// BatchSendSetting is the mass-send setting of member of tenant,
	// Enable by default.
	BatchSendSetting(ctx context.Context, tenant, member string) (string, error)
	// KeepsSticker reports whether one of member's stickers is the file at
	// filePath.
	KeepsSticker(ctx context.Context, member, filePath string) (bool, error)
}

// AddFavourite is the body of POST /v1/chat/favoriteInfo/build.
type AddFavourite struct {
	MessageID string `json:"messageId"`
}

// EditFavourite is the body of PUT /v1/chat/favoriteInfo/modify.
type EditFavourite struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// PersonalIDs names personal items: favourites or stickers to delete.
type PersonalIDs struct {
	IDs []string `json:"ids"`
}

// ForwardFavourites is the body of POST /v1/chat/favoriteInfo/forward.
type ForwardFavourites struct {
	UUID    string          `json:"uuid"`
	IDs     []string        `json:"ids"`
	Targets []ForwardTarget `json:"targets"`
}

// AddSticker is the body of POST /v1/chat/emojInfo/build: an uploaded
// picture (FilePath, with its size in pixels when known) or a favourite
// picture (FavoriteID).
type AddSticker struct {
	FilePath   string `json:"filePath"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	FavoriteID string `json:"favoriteId"`
}

// SendBatch is the body of POST /v1/chat/batchSend/build.
type SendBatch struct {
	UUID       string   `json:"uuid"`
	Recipients []string `json:"recipients"`
	MsgType    string   `json:"msgType"`
	Content    string   `json:"content"`
}

// SetBatchSend is the body of PUT /v1/chat/batchSend/setting.
type SetBatchSend struct {
	SendBatchMessage string `json:"sendBatchMessage"`
}

// Kept answers the addition of a personal item.
type Kept struct {
	ID       string `json:"id"`
	Position uint64 `json:"position"`
}

// FavouriteEdited answers an edit of a favourite.
type FavouriteEdited struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	EditTime int64  `json:"editTime"`
	Position uint64 `json:"position"`
}

// Dropped answers a deletion of personal items.
type Dropped struct {
	IDs      []string `json:"ids"`
	Position uint64   `json:"position"`
}

// BatchResult answers a mass message: the message sent to each recipient.
type BatchResult struct {
	ID       string             `json:"id"`
	Messages []ForwardedMessage `json:"messages"`
	Position uint64             `json:"position"`
}

// BatchSendSetting answers a change of the mass-send setting.
type BatchSendSetting struct {
	SendBatchMessage string `json:"sendBatchMessage"`
	Position         uint64 `json:"position"`
}

// appendInbox appends events decided for p to its inbox.
func (a *App) appendInbox(ctx context.Context, p Principal, events ...es.Event) (es.WriteResult, error) {
	return a.appendEvents(ctx, p, es.Stream(p.Tenant, es.CategoryInbox, p.MemberID), es.Any, events)
}

// favourites returns p's favourites of ids, in their order, or fails with
// not found.
func (a *App) favourites(ctx context.Context, p Principal, ids []string) ([]personal.Favourite, error) {
	docs, err := a.Personal.PersonalDocs(ctx, p.Tenant, p.MemberID, personal.KindFavourite, ids)
	if err != nil {
		return nil, err
	}
	if len(docs) != len(ids) {
		return nil, fault.New(fault.NotFound, personal.MsgFavouriteNotFound)
	}
	out := make([]personal.Favourite, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal(d, &out[i]); err != nil {
			return nil, fmt.Errorf("favourite %s: %w", ids[i], err)
		}
	}
	return out, nil
}

// AddFavourite keeps a snapshot of a message p sees.
func (a *App) AddFavourite(ctx context.Context, p Principal, r AddFavourite) (Kept, error) {
	m, err := a.one(ctx, p, r.MessageID)
	if err != nil {
		return Kept{}, err
	}
	id, err := a.NewID()
	if err != nil {
		return Kept{}, err
	}
	e, err := personal.AddFavourite(id, p.MemberID, m, a.Now())
	if err != nil {
		return Kept{}, err
	}
	res, err := a.appendInbox(ctx, p, e)
	if err != nil {
		return Kept{}, err
	}
	return Kept{ID: e.(*personal.FavouriteAdded).Favourite.ID, Position: res.Position}, nil
}

// EditFavourite replaces the text of one of p's text favourites.
func (a *App) EditFavourite(ctx context.Context, p Principal, r EditFavourite) (FavouriteEdited, error) {
	if r.ID == "" {
		return FavouriteEdited{}, fault.New(fault.Invalid, personal.MsgSelectRecords)
	}
	fs, err := a.favourites(ctx, p, []string{r.ID})
	if err != nil {
		return FavouriteEdited{}, err
	}
	e, err := personal.EditFavourite(p.MemberID, fs[0], r.Content, a.Now())
	if err != nil || e == nil {
		return FavouriteEdited{ID: r.ID, Content: fs[0].Content, EditTime: fs[0].EditTime}, err
	}
	res, err := a.appendInbox(ctx, p, e)
	if err != nil {
		return FavouriteEdited{}, err
	}
	f := e.(*personal.FavouriteEdited).Favourite
	return FavouriteEdited{ID: f.ID, Content: f.Content, EditTime: f.EditTime, Position: res.Position}, nil
}

// DeleteFavourites drops favourites of p.
func (a *App) DeleteFavourites(ctx context.Context, p Principal, r PersonalIDs) (Dropped, error) {
	if err := personal.CheckIDs(r.IDs); err != nil {
		return Dropped{}, err
	}
	if _, err := a.favourites(ctx, p, r.IDs); err != nil {
		return Dropped{}, err
	}
	res, err := a.appendInbox(ctx, p, &personal.FavouritesDeleted{Member: p.MemberID, IDs: r.IDs, At: a.Now().UnixMilli()})
	if err != nil {
		return Dropped{}, err
	}
	return Dropped{IDs: r.IDs, Position: res.Position}, nil
}

// ForwardFavourites forwards 1 to 10 favourites to friends as the message
// forward does: the favourites are snapshots, so the messages they kept
// may since have been deleted or recalled.
func (a *App) ForwardFavourites(ctx context.Context, p Principal, r ForwardFavourites) (Forwarded, error) {
	if err := checkForward(r.UUID, r.IDs, r.Targets); err != nil {
		return Forwarded{}, err
	}
	fs, err := a.favourites(ctx, p, r.IDs)
	if err != nil {
		return Forwarded{}, err
	}
	return a.forward(ctx, p, r.UUID, personal.Records(fs), r.Targets)
}

// AddSticker adds a picture p uploaded, or one of p's favourite pictures,
// to p's stickers.
func (a *App) AddSticker(ctx context.Context, p Principal, r AddSticker) (Kept, error) {
	var content string
	switch {
	case r.FavoriteID != "":
		fs, err := a.favourites(ctx, p, []string{r.FavoriteID})
		if err != nil {
			return Kept{}, err
		}
		if fs[0].MsgType != string(chat.Picture) {
			return Kept{}, fault.New(fault.Invalid, personal.MsgStickerNotPicture)
		}
		content = fs[0].Content
	case r.FilePath != "":
		m, err := a.uploadedPicture(ctx, p, r)
		if err != nil {
			return Kept{}, err
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return Kept{}, err
		}
		content = string(raw)
	default:
		return Kept{}, fault.New(fault.Invalid, personal.MsgStickerMissing)
	}
	picture, err := chat.ParseMedia(chat.Picture, p.Tenant, content)
	if err != nil {
		return Kept{}, err
	}
	if err := a.checkStored(ctx, p, picture); err != nil {
		return Kept{}, err
	}
	kept, err := a.Personal.PersonalCount(ctx, p.MemberID, personal.KindSticker)
	if err != nil {
		return Kept{}, err
	}
	id, err := a.NewID()
	if err != nil {
		return Kept{}, err
	}
	e, err := personal.AddSticker(id, p.MemberID, picture, content, kept, a.Now())
	if err != nil {
		return Kept{}, err
	}
	res, err := a.appendInbox(ctx, p, e)
	if err != nil {
		return Kept{}, err
	}
	return Kept{ID: e.(*personal.StickerAdded).Sticker.ID, Position: res.Position}, nil
}

// uploadedPicture describes a picture p uploaded as a Picture content.
// Another member's file is answered as one never uploaded (see mayShare).
func (a *App) uploadedPicture(ctx context.Context, p Principal, r AddSticker) (chat.Media, error) {
	tenant, name, ok := chat.ParseUploadPath(r.FilePath)
	switch {
	case !ok:
		return chat.Media{}, fault.New(fault.Invalid, chat.MsgMediaInvalid)
	case tenant != p.Tenant:
		return chat.Media{}, fault.New(fault.Invalid, chat.MsgMediaPath)
	case !chat.IsPicture(chat.ContentTypeOf(name)):
		return chat.Media{}, fault.New(fault.Invalid, personal.MsgStickerNotPicture)
	case !chat.UploadedBy(name, p.MemberID):
		return chat.Media{}, errMediaNotFound()
	}
	m := chat.Media{FilePath: r.FilePath, FileName: name, ContentType: chat.ContentTypeOf(name), Width: r.Width, Height: r.Height}
	if a.Uploads == nil {
		return m, nil
	}
	size, found, err := a.Uploads.Size(ctx, p.Tenant, name)
	switch {
	case err != nil:
		return chat.Media{}, err
	case !found:
		return chat.Media{}, errMediaNotFound()
	}
	m.Size = size
	return m, nil
}

// DeleteStickers drops stickers of p.
func (a *App) DeleteStickers(ctx context.Context, p Principal, r PersonalIDs) (Dropped, error) {
	if err := personal.CheckIDs(r.IDs); err != nil {
		return Dropped{}, err
	}
	docs, err := a.Personal.PersonalDocs(ctx, p.Tenant, p.MemberID, personal.KindSticker, r.IDs)
	if err != nil {
		return Dropped{}, err
	}
	if len(docs) != len(r.IDs) {
		return Dropped{}, fault.New(fault.NotFound, personal.MsgStickerNotFound)
	}
	res, err := a.appendInbox(ctx, p, &personal.StickersDeleted{Member: p.MemberID, IDs: r.IDs, At: a.Now().UnixMilli()})
	if err != nil {
		return Dropped{}, err
	}
	return Dropped{IDs: r.IDs, Position: res.Position}, nil
}

// SendBatch sends one message to each recipient, every one a friend of p
// in its tenant, then records the mass message. Nothing is appended
// unless every recipient may be written to; the same uuid again answers
// the first result and appends nothing.
func (a *App) SendBatch(ctx context.Context, p Principal, r SendBatch) (BatchResult, error) {
	setting, err := a.Personal.BatchSendSetting(ctx, p.Tenant, p.MemberID)
	if err != nil {
		return BatchResult{}, err
	}
	if err := personal.CheckBatchSend(setting); err != nil {
		return BatchResult{}, err
	}
	if cfg, err := a.TenantConfig(ctx, p.Tenant); err != nil {
		return BatchResult{}, err
	} else if !cfg.SendBatchMessage {
		return BatchResult{}, fault.New(fault.Forbidden, MsgBatchSendOff)
	}
	msgType, err := personal.BatchType(r.MsgType)
	if err != nil {
		return BatchResult{}, err
	}
	out := chat.Outgoing{UUID: r.UUID, ChatType: chat.Friend, From: p.MemberID, To: "-", MsgType: msgType, Content: r.Content}
	if err := out.Validate(); err != nil {
		return BatchResult{}, err
	}
	recipients, err := personal.Recipients(r.Recipients)
	if err != nil {
		return BatchResult{}, err
	}
	if err := a.checkContent(ctx, p, msgType, r.Content); err != nil {
		return BatchResult{}, err
	}
	if err := a.checkMedia(ctx, p, msgType, r.Content); err != nil {
		return BatchResult{}, err
	}
	pairs := make([]string, len(recipients))
	for i, to := range recipients {
		if pairs[i], err = a.authorizeFriendChat(ctx, p, to, "send"); err != nil {
			return BatchResult{}, err
		}
	}
	batchID, err := a.NewID()
	if err != nil {
		return BatchResult{}, err
	}
	result := BatchResult{Messages: make([]ForwardedMessage, len(recipients))}
	batch := personal.Batch{ID: batchID, UUID: r.UUID, MsgType: string(msgType), Content: r.Content,
		Recipients: recipients, MessageIDs: make([]string, len(recipients)), At: a.Now().UnixMilli()}
	for i, to := range recipients {
		one := out
		one.UUID, one.To = fmt.Sprintf("%s-%d", r.UUID, i), to
		sent, err := a.appendSend(ctx, p, pairs[i], one)
		if err != nil {
			return BatchResult{}, err
		}
		result.Messages[i] = ForwardedMessage{SendResult: sent, To: to}
		batch.MessageIDs[i] = sent.ID
	}
	stream := es.Stream(p.Tenant, es.CategoryInbox, p.MemberID)
	data, err := a.encode(p, r.UUID, []es.Event{&personal.BatchSent{Member: p.MemberID, Batch: batch}},
		messageEventID(p.Tenant, "batch", p.MemberID, r.UUID))
	if err != nil {
		return BatchResult{}, err
	}
	res, err := a.Store.Append(ctx, stream, es.Any, data)
	if err != nil {
		return BatchResult{}, err
	}
	result.ID, result.Position = batch.ID, res.Position
	if res.Duplicate {
		recs, err := a.Store.ReadStream(ctx, stream, es.Forwards, res.NextRevision, 1)
		if err != nil {
			return BatchResult{}, err
		}
		if len(recs) == 1 {
			if e, err := a.registry.Decode(recs[0].Type, recs[0].Data); err == nil {
				if first, ok := e.(*personal.BatchSent); ok {
					result.ID, result.Position = first.Batch.ID, recs[0].Position
				}
			}
		}
	}
	return result, nil
}

// ClearBatches empties p's list of mass messages.
func (a *App) ClearBatches(ctx context.Context, p Principal) (uint64, error) {
	res, err := a.appendInbox(ctx, p, &personal.BatchesCleared{Member: p.MemberID, At: a.Now().UnixMilli()})
	return res.Position, err
}

// SetBatchSend turns p's mass-send assistant on or off.
func (a *App) SetBatchSend(ctx context.Context, p Principal, r SetBatchSend) (BatchSendSetting, error) {
	e, err := personal.SetBatchSend(p.MemberID, r.SendBatchMessage, a.Now())
	if err != nil {
		return BatchSendSetting{}, err
	}
	res, err := a.appendInbox(ctx, p, e)
	if err != nil {
		return BatchSendSetting{}, err
	}
	return BatchSendSetting{SendBatchMessage: r.SendBatchMessage, Position: res.Position}, nil
}
