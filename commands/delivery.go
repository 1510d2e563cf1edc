package commands

import (
	"context"

	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/personal"
)

// Deliveries answers where a device stands in the delivery of messages.
type Deliveries interface {
	// Delivered is the position up to which the device of the login
	// session of member of tenant acknowledged its messages, 0 when it
	// never did.
	Delivered(ctx context.Context, tenant, member, session string) (uint64, error)
	// MessagePositions returns the log positions of the messages among
	// ids that member of tenant sees, by id.
	MessagePositions(ctx context.Context, tenant, member string, ids []string) (map[string]uint64, error)
	// Head is the position of the log's last event.
	Head(ctx context.Context) (uint64, error)
}

// MessageAck is the body of POST /v1/message/messagePush/realtime/messageAck:
// the device has every message of the member's chats up to Position, or
// up to the newest of MessageIDs.
type MessageAck struct {
	Position   uint64   `json:"position"`
	MessageIDs []string `json:"messageIds"`
}

// Delivery answers an acknowledgement: the device's delivered position.
type Delivery struct {
	Delivered uint64 `json:"delivered"` // the device's position now
	Position  uint64 `json:"position"`  // of the event appended; 0 when none was
}

// AckDelivery moves the delivered position of p's device (its login
// session) forward; one at or behind it changes nothing.
func (a *App) AckDelivery(ctx context.Context, p Principal, r MessageAck) (Delivery, error) {
	pos := r.Position
	switch {
	case pos == 0 && len(r.MessageIDs) == 0:
		return Delivery{}, fault.New(fault.Invalid, fault.MsgDeliveryNone)
	case len(r.MessageIDs) > personal.MaxIDsPerCall:
		return Delivery{}, fault.New(fault.Invalid, fault.MsgTooManyMessages)
	case len(r.MessageIDs) > 0:
		positions, err := a.Deliveries.MessagePositions(ctx, p.Tenant, p.MemberID, r.MessageIDs)
		if err != nil {
			return Delivery{}, err
		}
		for _, id := range r.MessageIDs {
			at, ok := positions[id]
			if !ok {
				return Delivery{}, fault.New(fault.NotFound, fault.MsgMessageNotFound)
			}
			pos = max(pos, at)
		}
	}
	head, err := a.Deliveries.Head(ctx)
	if err != nil {
		return Delivery{}, err
	}
	if pos > head {
		return Delivery{}, fault.New(fault.Invalid, fault.MsgDeliveryAhead)
	}
	current, err := a.Deliveries.Delivered(ctx, p.Tenant, p.MemberID, p.SessionID)
	if err != nil {
		return Delivery{}, err
	}
	if pos <= current {
		return Delivery{Delivered: current}, nil
	}
	res, err := a.appendInbox(ctx, p, &personal.MessagesDelivered{Member: p.MemberID, Session: p.SessionID, Position: pos, At: a.Now().UnixMilli()})
	if err != nil {
		return Delivery{}, err
	}
	return Delivery{Delivered: pos, Position: res.Position}, nil
}
