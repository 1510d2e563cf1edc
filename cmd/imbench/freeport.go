package main

import (
	"context"
	"fmt"
	"net"
)

// runFreePort prints a TCP port free on 127.0.0.1 for the server to take.
func runFreePort(context.Context, []string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	return nil
}
