// Command imctl is the operator CLI of imserver: tenants' settings and
// members' bans, sign-outs and levels, through the running server's admin
// API (see cmd/internal/imctl).
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/eventchat/eventchat/cmd/internal/imctl"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := imctl.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
