package sqliteread

import (
	"context"
	"errors"
	"fmt"

	"github.com/eventchat/eventchat/adapters/sqlitec"
)

// readers is a pool of read connections, each with the query statements
// compiled. A WAL reader sees the last commit and never waits for the
// writer.
type readers struct {
	free   chan *reader
	all    int
	closed chan struct{}
}

type reader struct {
	c  *sqlitec.Conn
	st readStatements
}

func openReaders(path string, n int) (*readers, error) {
	p := &readers{free: make(chan *reader, n), closed: make(chan struct{})}
	for range n {
		r, err := openReader(path)
		if err != nil {
			return nil, errors.Join(err, p.close((*sqlitec.Conn).Close))
		}
		p.free <- r
		p.all++
	}
	return p, nil
}

func openReader(path string) (*reader, error) {
	c, err := sqlitec.Open(path)
	if err != nil {
		return nil, err
	}
	if err := attachSearch(c, path); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	if err := c.Exec(`PRAGMA query_only = 1; PRAGMA busy_timeout = 5000`); err != nil {
		return nil, errors.Join(err, c.Close())
	}
	st, err := prepareReads(c)
	if err != nil {
		return nil, errors.Join(err, c.Close())
	}
	return &reader{c: c, st: st}, nil
}

// run lends fn a reader's statements, waiting for a free one.
func (p *readers) run(ctx context.Context, fn func(st *readStatements) error) error {
	select {
	case <-p.closed:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	case r := <-p.free:
		defer func() { p.free <- r }()
		return fn(&r.st)
	}
}

// close closes every connection with closeConn, waiting for those lent
// out.
func (p *readers) close(closeConn func(*sqlitec.Conn) error) error {
	close(p.closed)
	var errs []error
	for range p.all {
		r := <-p.free
		errs = append(errs, closeConn(r.c))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close readers: %w", err)
	}
	return nil
}
