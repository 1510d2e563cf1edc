package commands

import (
	"context"
	"time"
)

// every runs sweep every period until ctx ends or sweep fails.
func every(ctx context.Context, period time.Duration, sweep func(context.Context) error) error {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if err := sweep(ctx); err != nil && ctx.Err() == nil {
				return err
			}
		}
	}
}
