package personal

import "github.com/eventchat/eventchat/domain/es"

// Event type names: stored identifiers, never renamed.
const (
	TypeFavouriteAdded    = "FavouriteAdded"
	TypeFavouriteEdited   = "FavouriteEdited"
	TypeFavouritesDeleted = "FavouritesDeleted"
	TypeStickerAdded      = "StickerAdded"
	TypeStickersDeleted   = "StickersDeleted"
	TypeBatchSent         = "BatchSent"
	TypeBatchesCleared    = "BatchesCleared"
	TypeBatchSendSet      = "BatchSendSet"
	TypeMessagesDelivered = "MessagesDelivered"
)

// FavouriteAdded keeps a snapshot of a message in Member's favourites; in
// the member's inbox stream.
type FavouriteAdded struct {
	Member    string    `json:"member"`
	Favourite Favourite `json:"favourite"`
}

// FavouriteEdited replaces the text of a favourite; Favourite is its whole
// new state.
type FavouriteEdited struct {
	Member    string    `json:"member"`
	Favourite Favourite `json:"favourite"`
}

// FavouritesDeleted removes favourites.
type FavouritesDeleted struct {
	Member string   `json:"member"`
	IDs    []string `json:"ids"`
	At     int64    `json:"at"`
}

// StickerAdded adds a picture to Member's stickers.
type StickerAdded struct {
	Member  string  `json:"member"`
	Sticker Sticker `json:"sticker"`
}

// StickersDeleted removes stickers.
type StickersDeleted struct {
	Member string   `json:"member"`
	IDs    []string `json:"ids"`
	At     int64    `json:"at"`
}

// BatchSent records a mass message once each recipient's message is sent.
type BatchSent struct {
	Member string `json:"member"`
	Batch  Batch  `json:"batch"`
}

// BatchesCleared empties Member's list of mass messages.
type BatchesCleared struct {
	Member string `json:"member"`
	At     int64  `json:"at"`
}

// MessagesDelivered records that the device of Member's login Session has
// received every message of Member's chats up to the log position
// Position: the realtime list of that device starts after it.
type MessagesDelivered struct {
	Member   string `json:"member"`
	Session  string `json:"session"`
	Position uint64 `json:"position"`
	At       int64  `json:"at"`
}

// BatchSendSet turns Member's mass-send assistant on (Enable) or off.
type BatchSendSet struct {
	Member  string `json:"member"`
	Setting string `json:"setting"`
	At      int64  `json:"at"`
}

func (*FavouriteAdded) EventType() string    { return TypeFavouriteAdded }
func (*FavouriteEdited) EventType() string   { return TypeFavouriteEdited }
func (*FavouritesDeleted) EventType() string { return TypeFavouritesDeleted }
func (*StickerAdded) EventType() string      { return TypeStickerAdded }
func (*StickersDeleted) EventType() string   { return TypeStickersDeleted }
func (*BatchSent) EventType() string         { return TypeBatchSent }
func (*BatchesCleared) EventType() string    { return TypeBatchesCleared }
func (*BatchSendSet) EventType() string      { return TypeBatchSendSet }
func (*MessagesDelivered) EventType() string { return TypeMessagesDelivered }

// PersonalFields: see es.Personal. A favourite is the copy of the member
// who keeps it, whoever sent the message.
func (*FavouriteAdded) PersonalFields() (string, []string) {
	return "member", []string{"favourite.content"}
}

func (*FavouriteEdited) PersonalFields() (string, []string) {
	return "member", []string{"favourite.content"}
}

// A mass message's list keeps a copy of what its sender sent.
func (*BatchSent) PersonalFields() (string, []string) { return "member", []string{"batch.content"} }

// Events lists the constructors of this package's events.
func Events() []func() es.Event {
	return []func() es.Event{
		func() es.Event { return &FavouriteAdded{} },
		func() es.Event { return &FavouriteEdited{} },
		func() es.Event { return &FavouritesDeleted{} },
		func() es.Event { return &StickerAdded{} },
		func() es.Event { return &StickersDeleted{} },
		func() es.Event { return &BatchSent{} },
		func() es.Event { return &BatchesCleared{} },
		func() es.Event { return &BatchSendSet{} },
		func() es.Event { return &MessagesDelivered{} },
	}
}
