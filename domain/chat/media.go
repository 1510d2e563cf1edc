package chat

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/eventchat/eventchat/domain/fault"
)

// Media is the content of a Picture, VideoMsg, VoiceMsg or File message: a
// JSON text naming a file uploaded to this server.
type Media struct {
	FilePath    string  `json:"filePath"`
	FileName    string  `json:"fileName"`
	Size        int64   `json:"size"`
	ContentType string  `json:"contentType"`
	Width       int     `json:"width,omitempty"`
	Height      int     `json:"height,omitempty"`
	Duration    float64 `json:"duration,omitempty"` // seconds
}

// UploadPathPrefix starts the path of every uploaded file; the file's
// tenant and stored name follow: <prefix><tenant>/<name>.
const UploadPathPrefix = "/v1/sso/im/file/"

// Upload limits. A picture must be under 5 MB (spec: 5,000,000 bytes); any
// other file must be at most MaxFileBytes.
const (
	MaxPictureBytes = 5_000_000 - 1
	MaxFileBytes    = 100 << 20
	maxFileNameLen  = 255
	maxDimension    = 100_000
	maxDuration     = 24 * 3600
)

// storedName is the form of a stored file's name: 32 hex digits and the
// extension of its sniffed type.
var storedName = regexp.MustCompile(`^[0-9a-f]{32}\.[a-z0-9]{1,5}$`)

// StoredName names a file uploader stores: 16 random hex digits, then 16 of
// a digest of them and the uploader's member id, so that the name alone
// tells whose upload it is (UploadedBy), with no record to look up.
func StoredName(uploader string, random [8]byte, ext string) string {
	r := hex.EncodeToString(random[:])
	return r + uploaderDigest(uploader, r) + "." + ext
}

// UploadedBy reports whether name is the stored name of a file member
// uploaded.
func UploadedBy(name, member string) bool {
	return UploadedByAny(name, []string{member})
}

// UploadedByAny reports whether name is the stored name of a file one of
// members uploaded.
func UploadedByAny(name string, members []string) bool {
	if !ValidStoredName(name) {
		return false
	}
	for _, m := range members {
		if name[16:32] == uploaderDigest(m, name[:16]) {
			return true
		}
	}
	return false
}

func uploaderDigest(member, random string) string {
	sum := sha256.Sum256([]byte(member + "/" + random))
	return hex.EncodeToString(sum[:8])
}

// tenantCode is the form of a tenant code (domain/tenant).
var tenantCode = regexp.MustCompile(`^[a-z0-9]{2,16}$`)

// ValidStoredName reports whether name has the form of a stored file.
func ValidStoredName(name string) bool { return storedName.MatchString(name) }

// UploadPath is the path a stored file of tenant is served at.
func UploadPath(tenant, name string) string { return UploadPathPrefix + tenant + "/" + name }

// ParseUploadPath splits an upload path into its tenant and stored name.
func ParseUploadPath(p string) (tenant, name string, ok bool) {
	rest, found := strings.CutPrefix(p, UploadPathPrefix)
	if !found {
		return "", "", false
	}
	tenant, name, found = strings.Cut(rest, "/")
	if !found || !tenantCode.MatchString(tenant) || !ValidStoredName(name) {
		return "", "", false
	}
	return tenant, name, true
}

// contentTypes maps a stored file's extension to the content type it is
// served with. The upload sniffs the bytes and picks the extension; the
// client's file name never decides either.
var contentTypes = map[string]string{
	"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp",
	"mp4": "video/mp4", "webm": "video/webm", "ogv": "video/ogg", "avi": "video/avi",
	"mp3": "audio/mpeg", "m4a": "audio/mp4", "weba": "audio/webm", "ogg": "audio/ogg", "wav": "audio/wave",
	"aiff": "audio/aiff", "mid": "audio/midi",
	"pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "rar": "application/vnd.rar",
	"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	"txt":  "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8",
	"bin": "application/octet-stream",
}

// ContentTypeOf is the content type of a stored file's extension, or
// application/octet-stream for one this server does not name.
func ContentTypeOf(name string) string {
	if t, ok := contentTypes[strings.TrimPrefix(path.Ext(name), ".")]; ok {
		return t
	}
	return "application/octet-stream"
}

// ExtensionOf is the extension a file of content type t is stored under;
// ok is false for a type this server does not name.
func ExtensionOf(t string) (ext string, ok bool) {
	for e, ct := range contentTypes {
		if ct == t {
			return e, true
		}
	}
	return "", false
}

// IsPicture reports whether a content type is a picture the client shows.
func IsPicture(t string) bool { return strings.HasPrefix(t, "image/") }

// IsInline reports whether a file of content type t is shown in the page
// (pictures, video, audio) rather than downloaded.
func IsInline(t string) bool {
	return IsPicture(t) || strings.HasPrefix(t, "video/") || strings.HasPrefix(t, "audio/")
}

// IsMedia reports whether t's content is a Media JSON text.
func (t MsgType) IsMedia() bool {
	return t == Picture || t == VideoMsg || t == VoiceMsg || t == File
}

// ParseMedia checks the content of a media message sent by a member of
// tenant: a JSON text naming one of this server's uploads of that tenant,
// with a size within the limits and a content type that fits the message
// type and the stored file.
func ParseMedia(t MsgType, tenant, content string) (Media, error) {
	bad := func(key string) (Media, error) { return Media{}, fault.New(fault.Invalid, key) }
	var m Media
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || dec.More() {
		return bad(MsgMediaInvalid)
	}
	fileTenant, name, ok := ParseUploadPath(m.FilePath)
	if !ok || fileTenant != tenant {
		return bad(MsgMediaPath)
	}
	stored := ContentTypeOf(name)
	switch {
	case m.ContentType != stored:
		return bad(MsgMediaInvalid)
	case m.Size <= 0 || m.Size > MaxFileBytes:
		return bad(MsgMediaInvalid)
	case strings.TrimSpace(m.FileName) == "" || len(m.FileName) > maxFileNameLen || !utf8.ValidString(m.FileName) ||
		strings.ContainsAny(m.FileName, "/\\\x00"):
		return bad(MsgMediaFileName)
	case m.Width < 0 || m.Height < 0 || m.Width > maxDimension || m.Height > maxDimension:
		return bad(MsgMediaInvalid)
	case m.Duration < 0 || m.Duration > maxDuration || math.IsNaN(m.Duration):
		return bad(MsgMediaInvalid)
	}
	switch t {
	case Picture:
		if !IsPicture(stored) {
			return bad(MsgMediaNotPicture)
		}
		if m.Size > MaxPictureBytes {
			return Media{}, fault.New(fault.TooLarge, MsgPictureTooLarge)
		}
	case VideoMsg:
		if !strings.HasPrefix(stored, "video/") {
			return bad(MsgMediaNotVideo)
		}
	case VoiceMsg:
		if !strings.HasPrefix(stored, "audio/") && stored != "video/webm" && stored != "video/mp4" {
			return bad(MsgMediaNotAudio)
		}
	case File:
	default:
		return bad(MsgMediaInvalid)
	}
	return m, nil
}

// Message keys of media messages and uploads; the key is the English text.
const (
	MsgMediaInvalid    = "the file of this message is not valid"
	MsgMediaPath       = "the file of this message was not uploaded here"
	MsgMediaFileName   = "the file name is not valid"
	MsgMediaNotPicture = "a picture message needs a picture"
	MsgMediaNotVideo   = "a video message needs a video"
	MsgMediaNotAudio   = "a voice message needs a sound recording"
	MsgMediaNotFound   = "the file of this message is not found, upload it again"
	MsgPictureTooLarge = "A picture must be under 5MB"
	MsgFileTooLarge    = "A file must be at most 100MB"
	MsgFileRequired    = "A file must be chosen"
	MsgImageRequired   = "An image must be chosen"
	MsgAvatarGIF       = "A gif is not allowed as an avatar"
	MsgAvatarType      = "An avatar must be a jpg, jpeg or png picture"
	MsgUploadType      = "unknown upload type, use chat, avatar or feedback"
	MsgFileEmpty       = "The file is empty"
)
