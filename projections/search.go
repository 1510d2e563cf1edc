package projections

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/member"
)

// SearchQuery asks for the messages a viewer sees whose text contains
// Text, as people type it: case and diacritics do not matter ("an com"
// finds "ăn cơm"), and neither does đ against d.
type SearchQuery struct {
	Text string
	// ChatID keeps the messages of one chat only when it is not "".
	ChatID string
	// Before keeps the messages folded before the message of this id (the
	// last of the previous page) when it is not "".
	Before string
	Size   int
}

// Search page sizes.
const (
	defaultSearchSize = 20
	maxSearchSize     = 100
)

// PageSize is how many messages q asks for: Size, 20 when unset, 100 at
// most.
func (q SearchQuery) PageSize() int {
	if q.Size <= 0 {
		return defaultSearchSize
	}
	return min(q.Size, maxSearchSize)
}

// Search text lengths, in characters.
const (
	// SearchGram is the length of the grams the search indexes hold: a
	// shorter text is looked for by a scan of the viewer's own chats.
	SearchGram = 3
	// MaxSearchText bounds a query's text.
	MaxSearchText = 100
)

// FoldSearch is s as the search indexes hold it: lower case, without
// diacritics, đ as d, runs of white space as one space.
func FoldSearch(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == 'đ' || r == 'Đ':
			r = 'd'
		default:
			r = unicode.ToLower(r)
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SearchGrams are the distinct grams of SearchGram characters of folded,
// a FoldSearch text, in the order they first appear.
func SearchGrams(folded string) []string {
	runes := []rune(folded)
	if len(runes) < SearchGram {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for i := 0; i+SearchGram <= len(runes); i++ {
		g := string(runes[i : i+SearchGram])
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// SearchText is m's text as the search indexes hold it: none once recalled,
// deleted or erased with its sender.
func (m *Message) SearchText() string {
	if m.RecallTime != 0 || m.Deleted || m.Content == ErasedContent {
		return ""
	}
	return FoldSearch(m.Content)
}

// MatchesSearch reports whether m's text contains folded, a FoldSearch
// query.
func (m *Message) MatchesSearch(folded string) bool {
	return folded != "" && strings.Contains(m.SearchText(), folded)
}

// ShortSearch reports whether folded is too short for the gram indexes.
func ShortSearch(folded string) bool { return utf8.RuneCountInString(folded) < SearchGram }

// SearchIndex folds the texts of messages into the search model: what the
// chats projector stored of each message an event sent, edited, recalled
// or deleted, and of every message of a member erased. The engine folds it behind the others, on its own (see
// Engine.Trail), so that sends do not wait for the index.
type SearchIndex struct{}

func (SearchIndex) Name() string { return "search.v1" }

// EventTypes are the types Project folds (Selective).
func (SearchIndex) EventTypes() []string {
	return []string{chat.TypeMessageSent, chat.TypeMessageEdited, chat.TypeMessageRecalled, chat.TypeMessagesDeleted, member.TypeErased}
}

func (SearchIndex) Project(ctx context.Context, tx Tx, events []Envelope) ([]Delta, error) {
	var ids []string
	for _, env := range events {
		switch e := env.Event.(type) {
		case *chat.MessageSent:
			ids = append(ids, e.MessageID)
		case *chat.MessageEdited:
			ids = append(ids, e.MessageID)
		case *chat.MessageRecalled:
			ids = append(ids, e.MessageID)
		case *chat.MessagesDeleted:
			ids = append(ids, e.MessageIDs...)
		case *member.Erased:
			sent, err := tx.MessagesFrom(ctx, env.Tenant, env.Stream.ID)
			if err != nil {
				return nil, err
			}
			for _, m := range sent {
				ids = append(ids, m.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return nil, tx.IndexMessages(ctx, ids)
}
