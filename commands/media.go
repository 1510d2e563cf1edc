package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

// Uploads tells the size of a file uploaded to this server; found is false
// when tenant has no file of that name.
type Uploads interface {
	Size(ctx context.Context, tenant, name string) (size int64, found bool, err error)
}

// checkMedia checks the content of a media message: its form (chat.ParseMedia)
// and, when the app has Uploads, that the file is stored with the size the
// content claims.
func (a *App) checkMedia(ctx context.Context, p Principal, t chat.MsgType, content string) error {
	if !t.IsMedia() {
		return nil
	}
	m, err := chat.ParseMedia(t, p.Tenant, content)
	if err != nil || a.Uploads == nil {
		return err
	}
	_, name, _ := chat.ParseUploadPath(m.FilePath)
	size, found, err := a.Uploads.Size(ctx, p.Tenant, name)
	switch {
	case err != nil:
		return err
	case !found:
		return fault.New(fault.Invalid, chat.MsgMediaNotFound)
	case size != m.Size:
		return fault.New(fault.Invalid, chat.MsgMediaInvalid)
	}
	return nil
}
