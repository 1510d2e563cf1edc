package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

// Uploads keeps the files uploaded to this server. Size tells a file's
// size; found is false when tenant has no file of that name. DeleteUploads
// deletes every file of tenant one of members uploaded (chat.UploadedBy);
// deleting them again deletes nothing more.
type Uploads interface {
	Size(ctx context.Context, tenant, name string) (size int64, found bool, err error)
	DeleteUploads(ctx context.Context, tenant string, members []string) (deleted int, err error)
}

// checkMedia checks the content of a new media message of p: its form
// (chat.ParseMedia), that p may send its file (mayShare), and that the file
// is stored as the content describes (checkStored).
func (a *App) checkMedia(ctx context.Context, p Principal, t chat.MsgType, content string) error {
	if !t.IsMedia() {
		return nil
	}
	m, err := chat.ParseMedia(t, p.Tenant, content)
	if err != nil {
		return err
	}
	if err := a.mayShare(ctx, p, m.FilePath); err != nil {
		return err
	}
	return a.checkStored(ctx, p, m)
}

// mayShare fails unless filePath, an upload path of p's tenant, is p's own
// upload or the file of one of p's stickers (which may be a picture p
// received and kept from a favourite). A message p received is passed on
// by forwarding it, which copies it on the server. Any other member's file
// is answered as a file never uploaded, so that no answer tells whether a
// name is someone's file.
func (a *App) mayShare(ctx context.Context, p Principal, filePath string) error {
	_, name, _ := chat.ParseUploadPath(filePath)
	if chat.UploadedBy(name, p.MemberID) {
		return nil
	}
	kept, err := a.Personal.KeepsSticker(ctx, p.MemberID, filePath)
	switch {
	case err != nil:
		return err
	case !kept:
		return errMediaNotFound()
	}
	return nil
}

// checkStored checks, when the app has Uploads, that the file of m is
// stored with the size m claims.
func (a *App) checkStored(ctx context.Context, p Principal, m chat.Media) error {
	if a.Uploads == nil {
		return nil
	}
	_, name, _ := chat.ParseUploadPath(m.FilePath)
	size, found, err := a.Uploads.Size(ctx, p.Tenant, name)
	switch {
	case err != nil:
		return err
	case !found:
		return errMediaNotFound()
	case size != m.Size:
		return fault.New(fault.Invalid, chat.MsgMediaInvalid)
	}
	return nil
}

// errMediaNotFound answers a file that is not there for the caller: never
// uploaded, or another member's.
func errMediaNotFound() error { return fault.New(fault.Invalid, chat.MsgMediaNotFound) }
