package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/chat"
	"github.com/eventchat/eventchat/domain/fault"
)

// Blobs keeps uploaded files per tenant.
//
// Save streams src, uploaded by the member uploader, into a new file of
// tenant under a new unguessable name (chat.StoredName) ending in "."+ext,
// and returns that name and the bytes stored; when src fails, its error is
// returned wrapped and nothing is stored. Open returns a
// stored file and its time of storing; an unknown name is fs.ErrNotExist.
type Blobs interface {
	Save(ctx context.Context, tenant, uploader, ext string, src io.Reader) (name string, size int64, err error)
	Open(ctx context.Context, tenant, name string) (io.ReadSeekCloser, time.Time, error)
}

// Uploaded answers an upload. FilePath is what a media message's content
// names, and where the file is served.
type Uploaded struct {
	FilePath    string `json:"filePath"`
	FileName    string `json:"fileName"`
	Size        int64  `json:"size"`
	ContentType string `json:"contentType"`
}

// uploadBody is the envelope of an upload: the spec's client reads msg.
type uploadBody struct {
	Code string   `json:"code"`
	Msg  string   `json:"msg"`
	Info string   `json:"info"`
	Data Uploaded `json:"data"`
}

// maxUploadBody caps an upload's request: the largest file and room for the
// multipart framing and other fields.
const maxUploadBody = chat.MaxFileBytes + 1<<20

func (a *API) uploadRoutes() []route {
	return []route{
		{method: http.MethodPost, path: "/sso/im/upload/v1", form: true, streamed: true, maxBody: maxUploadBody,
			summary: "Upload a file (multipart field file). Its type is sniffed from its bytes. Pictures under 5 MB (5,000,000 bytes), " +
				"other files at most 100 MiB; an avatar is a jpg or png picture, feedback a jpg, png or gif picture. " +
				"The envelope carries msg too; data.filePath is what a media message's content names.",
			query: []param{{"type", false, "chat (default) | avatar | feedback"},
				{"fileType", false, "picture: the file must be a picture (the spec's avatar upload sends this)"}},
			result: Uploaded{}, handle: a.upload},
		{method: http.MethodGet, path: "/sso/im/file/:tenant/:name", tokenQuery: true,
			summary: "An uploaded file of the member's tenant, with Range support. The token may come as ?token= " +
				"instead of the Authorization header, for <img src>. Pictures, video and audio are served inline, other files as attachments.",
			query:  []param{{"token", false, "the login token, when no Authorization header is sent"}},
			handle: a.file},
	}
}

// uploadKind is what an upload is for; it decides the types and sizes allowed.
type uploadKind string

const (
	uploadChat     uploadKind = "chat"
	uploadAvatar   uploadKind = "avatar"
	uploadFeedback uploadKind = "feedback"
	uploadPicture  uploadKind = "picture" // ?fileType=picture: any picture
)

func (a *API) upload(c echo.Context, p commands.Principal) error {
	kind := uploadKind(c.QueryParam("type"))
	switch kind {
	case "":
		kind = uploadChat
		if c.QueryParam("fileType") == "picture" {
			kind = uploadPicture
		}
	case uploadChat, uploadAvatar, uploadFeedback:
	default:
		return fault.New(fault.Invalid, chat.MsgUploadType)
	}
	if a.deps.Blobs == nil {
		return fault.New(fault.NotFound, fault.MsgNotFound)
	}
	missing := chat.MsgFileRequired
	if kind != uploadChat {
		missing = chat.MsgImageRequired
	}
	req := c.Request()
	mr, err := req.MultipartReader()
	if err != nil {
		return fault.New(fault.Invalid, missing)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return fault.New(fault.Invalid, missing)
		}
		if err != nil {
			return readFault(err)
		}
		if part.FormName() != "file" {
			continue
		}
		up, err := a.store(req.Context(), p, kind, part.FileName(), io.MultiReader(part, bodyEnd{req.Body}))
		if err != nil {
			return err
		}
		msg := envelope.Translate(lang(c), "success")
		return c.JSON(http.StatusOK, uploadBody{Code: "200", Msg: msg, Info: msg, Data: up})
	}
}

// store sniffs the file's type from its first bytes, checks it against the
// upload's kind, and streams the file to the blob store within its cap.
func (a *API) store(ctx context.Context, p commands.Principal, kind uploadKind, clientName string, src io.Reader) (Uploaded, error) {
	head := make([]byte, 512)
	n, err := io.ReadFull(src, head)
	switch {
	case n == 0 && (err == nil || errors.Is(err, io.EOF)):
		return Uploaded{}, fault.New(fault.Invalid, chat.MsgFileEmpty)
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return Uploaded{}, readFault(err)
	}
	head = head[:n]
	ext := sniff(head, clientName)
	contentType := chat.ContentTypeOf("." + ext)
	limit, tooLarge := int64(chat.MaxFileBytes), chat.MsgFileTooLarge
	if chat.IsPicture(contentType) {
		limit, tooLarge = chat.MaxPictureBytes, chat.MsgPictureTooLarge
	}
	switch {
	case kind == uploadAvatar && ext == "gif":
		return Uploaded{}, fault.New(fault.Invalid, chat.MsgAvatarGIF)
	case kind == uploadAvatar && ext != "jpg" && ext != "png":
		return Uploaded{}, fault.New(fault.Invalid, chat.MsgAvatarType)
	case kind == uploadFeedback && ext != "jpg" && ext != "png" && ext != "gif",
		kind == uploadPicture && !chat.IsPicture(contentType):
		return Uploaded{}, fault.New(fault.Invalid, chat.MsgImageRequired)
	}
	capped := &capReader{r: io.MultiReader(bytes.NewReader(head), src), left: limit}
	name, size, err := a.deps.Blobs.Save(ctx, p.Tenant, p.MemberID, ext, capped)
	switch {
	case errors.Is(err, errOverCap):
		return Uploaded{}, fault.New(fault.TooLarge, tooLarge)
	case capped.failed != nil:
		return Uploaded{}, readFault(capped.failed)
	case err != nil:
		return Uploaded{}, err
	}
	return Uploaded{
		FilePath:    chat.UploadPath(p.Tenant, name),
		FileName:    displayName(clientName, name),
		Size:        size,
		ContentType: contentType,
	}, nil
}

// readFault maps a failure to read the request: over the body cap is 413,
// anything else (a broken multipart body, a client gone) 400.
func readFault(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return fault.New(fault.TooLarge, fault.MsgBodyTooLarge)
	}
	return fault.New(fault.Invalid, fault.MsgBadRequest)
}

// bodyEnd ends a file with the rest of the request's body, read and
// dropped: a body over its cap then fails the file, which is not stored.
type bodyEnd struct{ body io.Reader }

func (b bodyEnd) Read([]byte) (int, error) {
	if _, err := io.Copy(io.Discard, b.body); err != nil {
		return 0, err
	}
	return 0, io.EOF
}

var errOverCap = errors.New("upload over its cap")

// capReader fails with errOverCap once more than left bytes pass, and keeps
// the source's own failure apart.
type capReader struct {
	r      io.Reader
	left   int64
	failed error
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errOverCap
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errOverCap
	}
	if err != nil && !errors.Is(err, io.EOF) {
		c.failed = err
	}
	return n, err
}

// sniff names the extension a file is stored under from its first bytes;
// the client's extension only tells apart types that share their bytes
// (a zip from an Office document, audio from video in the same container,
// CSV from plain text, a bare MP3 frame).
func sniff(head []byte, clientName string) string {
	clientExt := strings.ToLower(strings.TrimPrefix(path.Ext(clientName), "."))
	detected, _, _ := mime.ParseMediaType(http.DetectContentType(head))
	switch detected {
	case "image/jpeg":
		return "jpg"
	case "image/png":
		return "png"
	case "image/gif":
		return "gif"
	case "image/webp":
		return "webp"
	case "image/bmp":
		return "bmp"
	case "video/mp4":
		if clientExt == "m4a" {
			return "m4a"
		}
		return "mp4"
	case "video/webm":
		if clientExt == "weba" {
			return "weba"
		}
		return "webm"
	case "application/ogg":
		if clientExt == "ogv" {
			return "ogv"
		}
		return "ogg"
	case "video/avi":
		return "avi"
	case "audio/mpeg":
		return "mp3"
	case "audio/wave":
		return "wav"
	case "audio/aiff":
		return "aiff"
	case "audio/midi":
		return "mid"
	case "application/pdf":
		return "pdf"
	case "application/x-gzip":
		return "gz"
	case "application/x-rar-compressed":
		return "rar"
	case "application/zip":
		switch clientExt {
		case "docx", "xlsx", "pptx":
			return clientExt
		}
		return "zip"
	case "text/plain":
		if !utf8.Valid(trimPartialRune(head)) {
			return "bin"
		}
		switch clientExt {
		case "csv", "md":
			return clientExt
		}
		return "txt"
	case "application/octet-stream":
		if clientExt == "mp3" && len(head) > 1 && head[0] == 0xff && head[1]&0xe0 == 0xe0 {
			return "mp3"
		}
	}
	return "bin"
}

// trimPartialRune drops a rune cut at the end of a sniffed head.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}

// displayName is the client's file name as shown to members: its last path
// element without control characters, at most 255 bytes; the stored name
// when nothing is left.
func displayName(clientName, stored string) string {
	name := clientName
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if strings.TrimSpace(name) == "" || name == "." || name == ".." {
		return stored
	}
	return name
}

// file serves an uploaded file of the member's own tenant: another
// tenant's, or a name not of the stored form, is 404.
func (a *API) file(c echo.Context, p commands.Principal) error {
	tenant, name := c.Param("tenant"), c.Param("name")
	if a.deps.Blobs == nil || tenant != p.Tenant || !chat.ValidStoredName(name) {
		return fault.New(fault.NotFound, fault.MsgNotFound)
	}
	f, modified, err := a.deps.Blobs.Open(c.Request().Context(), tenant, name)
	if errors.Is(err, fs.ErrNotExist) {
		return fault.New(fault.NotFound, fault.MsgNotFound)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	contentType := chat.ContentTypeOf(name)
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, contentType)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=86400")
	if chat.IsInline(contentType) {
		h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("inline", map[string]string{"filename": name}))
	} else {
		h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	}
	http.ServeContent(c.Response(), c.Request(), name, modified, f)
	return nil
}
