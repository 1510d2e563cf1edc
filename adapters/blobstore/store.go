// Package blobstore keeps uploaded files on disk, one directory per tenant:
// <root>/<tenant>/<first two letters of the name>/<name>. A file is written
// to a temporary file beside its place, fsynced, renamed into place and its
// directory fsynced, so that a stored name always holds the whole file. Names
// are chat.StoredName's: 64 random bits and the uploader's mark in hex, plus
// the extension the caller gives; nothing of a client's file name reaches a
// path.
package blobstore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/eventchat/eventchat/domain/chat"
)

// Dir is the directory of the blobs below the data directory.
const Dir = "blobs"

// Store is the blob directory.
type Store struct {
	root string
}

// New returns the store rooted at root, creating it. Temporary files left by
// uploads that a crash interrupted are removed.
func New(root string) (*Store, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("blob store: %w", err)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasPrefix(d.Name(), tempPrefix) {
			err = os.Remove(p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("blob store: %w", err)
	}
	return &Store{root: root}, nil
}

// tempPrefix starts the names of files being written.
const tempPrefix = ".upload-"

var (
	tenantPattern = regexp.MustCompile(`^[a-z0-9]{2,16}$`)
	extPattern    = regexp.MustCompile(`^[a-z0-9]{1,5}$`)
)

// ValidTenant reports whether tenant has the form of a tenant code.
func ValidTenant(tenant string) bool { return tenantPattern.MatchString(tenant) }

// ErrInvalid reports a tenant or extension not of the stored forms.
var ErrInvalid = errors.New("blob store: invalid tenant or extension")

// NewName checks tenant and ext and returns a new stored name of a file
// uploader uploads (chat.StoredName), for this store and the others.
func NewName(tenant, uploader, ext string) (string, error) {
	if !tenantPattern.MatchString(tenant) || !extPattern.MatchString(ext) {
		return "", ErrInvalid
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return chat.StoredName(uploader, b, ext), nil
}

// Save streams src, uploaded by the member uploader, into a new file of
// tenant stored under a new name with extension ext, and returns the name and
// the number of bytes stored. When src fails (its error is returned, wrapped)
// or ctx ends, nothing is stored.
func (s *Store) Save(ctx context.Context, tenant, uploader, ext string, src io.Reader) (string, int64, error) {
	name, err := NewName(tenant, uploader, ext)
	if err != nil {
		return "", 0, err
	}
	dir := filepath.Join(s.root, tenant, name[:2])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	stored := false
	defer func() {
		if !stored {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, WithContext(ctx, src))
	if err != nil {
		return "", 0, err
	}
	if err := tmp.Sync(); err != nil {
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	stored = true
	if err := syncDir(dir); err != nil {
		_ = os.Remove(filepath.Join(dir, name))
		return "", 0, fmt.Errorf("blob store: %w", err)
	}
	return name, n, nil
}

// Open opens a stored file for reading and seeking, with its time of
// storing. A name that is not stored, or not of the stored form, is
// fs.ErrNotExist.
func (s *Store) Open(_ context.Context, tenant, name string) (io.ReadSeekCloser, time.Time, error) {
	p, ok := s.path(tenant, name)
	if !ok {
		return nil, time.Time{}, fs.ErrNotExist
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, time.Time{}, fs.ErrNotExist
	}
	return f, info.ModTime(), nil
}

// Size returns a stored file's size; found is false when there is none of
// that name.
func (s *Store) Size(_ context.Context, tenant, name string) (int64, bool, error) {
	p, ok := s.path(tenant, name)
	if !ok {
		return 0, false, nil
	}
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return info.Size(), info.Mode().IsRegular(), nil
}

// DeleteUploads deletes every file of tenant uploaded by one of members
// (chat.UploadedBy) and returns how many it deleted. It reads every name of
// the tenant once; a file already gone is skipped, so rounds running at
// once, or a round repeated, delete each file once.
func (s *Store) DeleteUploads(_ context.Context, tenant string, members []string) (int, error) {
	if !ValidTenant(tenant) {
		return 0, ErrInvalid
	}
	if len(members) == 0 {
		return 0, nil
	}
	deleted := 0
	touched := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(s.root, tenant), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || !d.Type().IsRegular() || !chat.UploadedByAny(d.Name(), members) {
			return err
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		deleted++
		touched[filepath.Dir(p)] = true
		return nil
	})
	for dir := range touched {
		err = errors.Join(err, syncDir(dir))
	}
	if err != nil {
		return deleted, fmt.Errorf("blob store: delete uploads: %w", err)
	}
	return deleted, nil
}

func (s *Store) path(tenant, name string) (string, bool) {
	if !tenantPattern.MatchString(tenant) || !chat.ValidStoredName(name) {
		return "", false
	}
	return filepath.Join(s.root, tenant, name[:2], name), true
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WithContext returns a reader of r that fails once ctx ends: a copy from it
// stops there.
func WithContext(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
