// Package personal holds a member's own spaces: favourites (snapshots of
// messages), stickers, and the mass messages of the group-send assistant.
// Their events live in the member's inbox stream.
package personal

import (
	"slices"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/es"
	"github.com/eventchat/eventchat/domain/fault"
)

// Kinds of personal items in the read model.
const (
	KindFavourite = "favourite"
	KindSticker   = "sticker"
	KindBatch     = "batch"
	KindSetting   = "setting"
	KindDelivery  = "delivery" // a device's delivered position, by login session id
	// A tenant's feedback list (FeedbackOwner's items): each feedback, and
	// the latest reply to it under the feedback's id.
	KindFeedback      = "feedback"
	KindFeedbackReply = "feedback-reply"
)

// Limits of the personal spaces.
const (
	MaxBatchRecipients = 100
	MaxStickers        = 300
	MaxIDsPerCall      = 100
)

// The mass-send assistant settings; SettingBatchSend is the id of the
// setting item.
const (
	Enable           = "Enable"
	Disable          = "Disable"
	SettingBatchSend = "sendBatchMessage"
)

// Message keys of the personal spaces.
const (
	MsgFavouriteUnsupported = "This message cannot be added to favourites"
	MsgFavouriteNotFound    = "The favourite is not found"
	MsgFavouriteNotText     = "Only a text favourite can be edited"
	MsgSelectRecords        = "Please select the records first"
	MsgTooManyRecords       = "At most 100 records at once"
	MsgStickerNotPicture    = "A sticker must be a picture"
	MsgStickersFull         = "At most 300 stickers can be kept"
	MsgStickerMissing       = "Choose an uploaded picture or a favourite picture"
	MsgStickerNotFound      = "The sticker is not found"
	MsgBatchNoRecipients    = "Please select the recipients"
	MsgBatchTooMany         = "A mass message can go to at most 100 friends"
	MsgBatchDisabled        = "Mass send is not enabled for this account"
	MsgBatchSettingInvalid  = "sendBatchMessage must be Enable or Disable"
	MsgBatchType            = "A mass message is a text, a picture, a video, a voice message or a file"
)

// Favourite is a snapshot of a message: it outlives the message.
type Favourite struct {
	ID        string `json:"id"`
	MessageID string `json:"messageId"`
	ChatType  string `json:"chatType"`
	From      string `json:"from"` // the sender of the message
	Peer      string `json:"peer"` // the friend of the chat it came from
	MsgType   string `json:"msgType"`
	Content   string `json:"content"`
	SentAt    int64  `json:"sendTime"`
	At        int64  `json:"createTime"`
	EditTime  int64  `json:"editTime,omitempty"`
}

// Sticker is a picture a member keeps to send again; Content is a Picture
// message's content.
type Sticker struct {
	ID       string `json:"id"`
	FilePath string `json:"filePath"`
	Content  string `json:"content"`
	At       int64  `json:"createTime"`
}

// Batch is a mass message as its sender lists it.
type Batch struct {
	ID         string   `json:"id"`
	UUID       string   `json:"uuid"`
	MsgType    string   `json:"msgType"`
	Content    string   `json:"content"`
	Recipients []string `json:"recipients"`
	MessageIDs []string `json:"messageIds"`
	At         int64    `json:"createTime"`
}

// text are the types whose content is plain text.
var text = map[chat.MsgType]bool{chat.Text: true, chat.AtText: true, chat.Reply: true}

// unfavourable are the types that cannot be kept.
var unfavourable = map[chat.MsgType]bool{chat.Event: true, chat.VoiceCall: true, chat.VideoCall: true}

// AddFavourite decides the favourite id of m for member; a forwarded
// message is kept as the type it forwarded.
func AddFavourite(id, member string, m chat.Stored, now time.Time) (es.Event, error) {
	typ := m.MsgType
	if typ == chat.Forward && m.ForwardType != "" {
		typ = m.ForwardType
	}
	if m.Recalled || unfavourable[typ] {
		return nil, fault.New(fault.Invalid, MsgFavouriteUnsupported)
	}
	peer := m.To
	if m.To == member {
		peer = m.From
	}
	return &FavouriteAdded{Member: member, Favourite: Favourite{
		ID: id, MessageID: m.ID, ChatType: string(m.ChatType), From: m.From, Peer: peer,
		MsgType: string(typ), Content: m.Content, SentAt: m.SentAt, At: now.UnixMilli(),
	}}, nil
}

// EditFavourite decides the new text of a text favourite; nil when the
// text is unchanged.
func EditFavourite(member string, f Favourite, content string, now time.Time) (es.Event, error) {
	if !text[chat.MsgType(f.MsgType)] {
		return nil, fault.New(fault.Invalid, MsgFavouriteNotText)
	}
	if err := chat.CheckContent(content); err != nil {
		return nil, err
	}
	if content == f.Content {
		return nil, nil
	}
	f.Content, f.EditTime = content, now.UnixMilli()
	return &FavouriteEdited{Member: member, Favourite: f}, nil
}

// CheckIDs checks the ids of records given in one call.
func CheckIDs(ids []string) error {
	switch {
	case len(ids) == 0:
		return fault.New(fault.Invalid, MsgSelectRecords)
	case len(ids) > MaxIDsPerCall:
		return fault.New(fault.Invalid, MsgTooManyRecords)
	}
	for _, id := range ids {
		if id == "" {
			return fault.New(fault.Invalid, MsgSelectRecords)
		}
	}
	return nil
}

// Records are the favourites as records of a forward: the message they
// keep, whatever has become of it since.
func Records(fs []Favourite) []chat.Stored {
	out := make([]chat.Stored, len(fs))
	for i, f := range fs {
		out[i] = chat.Stored{ID: f.MessageID, ChatType: chat.ChatType(f.ChatType), From: f.From,
			MsgType: chat.MsgType(f.MsgType), Content: f.Content, SentAt: f.SentAt}
	}
	return out
}

// AddSticker decides a sticker of a Picture content (see chat.ParseMedia)
// when the member keeps fewer than MaxStickers.
func AddSticker(id, member string, picture chat.Media, content string, kept int, now time.Time) (es.Event, error) {
	if kept >= MaxStickers {
		return nil, fault.New(fault.Conflict, MsgStickersFull)
	}
	return &StickerAdded{Member: member, Sticker: Sticker{ID: id, FilePath: picture.FilePath, Content: content, At: now.UnixMilli()}}, nil
}

// Recipients checks the recipients of a mass message and returns them
// without repeats, in the order given.
func Recipients(to []string) ([]string, error) {
	var out []string
	for _, r := range to {
		r = strings.TrimSpace(r)
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	switch {
	case len(out) == 0:
		return nil, fault.New(fault.Invalid, MsgBatchNoRecipients)
	case len(out) > MaxBatchRecipients:
		return nil, fault.New(fault.Invalid, MsgBatchTooMany)
	}
	return out, nil
}

// BatchType parses the type of a mass message: a text (the default) or a
// media type.
func BatchType(s string) (chat.MsgType, error) {
	t := chat.MsgType(s)
	switch {
	case s == "":
		return chat.Text, nil
	case t == chat.Text || t.IsMedia():
		return t, nil
	}
	return "", fault.New(fault.Invalid, MsgBatchType)
}

// CheckBatchSend refuses a mass message unless the setting is Enable; no
// setting ("") means the default, Enable.
func CheckBatchSend(setting string) error {
	if setting == "" || setting == Enable {
		return nil
	}
	return fault.New(fault.Forbidden, MsgBatchDisabled)
}

// SetBatchSend decides a change of the mass-send setting.
func SetBatchSend(member, setting string, now time.Time) (es.Event, error) {
	if setting != Enable && setting != Disable {
		return nil, fault.New(fault.Invalid, MsgBatchSettingInvalid)
	}
	return &BatchSendSet{Member: member, Setting: setting, At: now.UnixMilli()}, nil
}

// FeedbackOwner owns tenant's feedback list among the personal items; no
// member id equals it.
func FeedbackOwner(tenant string) string { return "tenant:" + tenant }
