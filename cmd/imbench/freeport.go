package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
)

// runFreePort prints a TCP port free on 127.0.0.1 for the server to take,
// the first of -n consecutive free ones.
func runFreePort(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("freeport", flag.ContinueOnError)
	n := fs.Int("n", 1, "consecutive free ports wanted (1 to 64)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *n > 64 {
		return errors.New("need 1 <= -n <= 64")
	}
	for range 100 {
		if first, ok := freeFrom(*n); ok {
			fmt.Println(first)
			return nil
		}
	}
	return fmt.Errorf("no %d consecutive free ports found", *n)
}

// freeFrom takes a free port from the kernel and tells whether the n-1
// after it are free too.
func freeFrom(n int) (int, bool) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, false
	}
	defer ln.Close()
	first := ln.Addr().(*net.TCPAddr).Port
	for p := first + 1; p < first+n; p++ {
		next, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return 0, false
		}
		defer next.Close()
	}
	return first, true
}
