// Package payments holds the payment providers of top-up orders.
package payments

import (
	"context"

	"github.com/eventchat/eventchat/commands"
)

// Operator is the embedded profile's provider: the member pays outside
// the server (a transfer, cash at a desk) and an operator confirms or
// rejects the order (imctl topup confirm|reject, the admin page) before
// it expires. Handing it an order asks nothing of anyone.
type Operator struct{}

// Start takes the order as it is: it waits for an operator.
func (Operator) Start(context.Context, commands.TopUpPayment) error { return nil }
