package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eventchat/eventchat/adapters/ws/wsclient"
)

// registerMembers registers and logs in n members, parallel at a time (each
// costs several bcrypt rounds on the server). Accounts and phones start from
// first, so that runs against one server do not collide.
func registerMembers(ctx context.Context, s *server, n, first, parallel int) ([]member, error) {
	ms := make([]member, n)
	err := forEach(ctx, n, parallel, func(ctx context.Context, i int) error {
		m, err := s.register(ctx, fmt.Sprintf("bench%05d", first+i), fmt.Sprintf("136%08d", first+i))
		ms[i] = m
		return err
	})
	return ms, err
}

// dialAll opens a socket for each of ms, on the server at(i), parallel at
// a time. On failure it closes those it opened.
func dialAll(ctx context.Context, at func(i int) *server, ms []member, parallel int, opts ...wsclient.Option) ([]*wsclient.Client, error) {
	cs := make([]*wsclient.Client, len(ms))
	err := forEach(ctx, len(ms), parallel, func(ctx context.Context, i int) error {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := wsclient.Dial(dctx, at(i).socketURL(), ms[i].Token, ms[i].Key, opts...)
		cs[i] = c
		return err
	})
	if err != nil {
		closeAll(cs)
		return nil, err
	}
	return cs, nil
}

// closeAll closes the sockets, many at a time: each close waits for the
// server's answer.
func closeAll(cs []*wsclient.Client) {
	_ = forEach(context.Background(), len(cs), 64, func(_ context.Context, i int) error {
		if cs[i] != nil {
			_ = cs[i].Close()
		}
		return nil
	})
}

// forEach runs fn for 0..n-1, parallel at a time, and stops starting new
// calls after the first failure, which it returns.
func forEach(ctx context.Context, n, parallel int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range min(parallel, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs[0], fmt.Errorf("%d of %d failed", len(errs), n))
	}
	return ctx.Err()
}
