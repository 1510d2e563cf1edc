package ws

import (
	"context"
	"encoding/json"
	"strconv"

	"go.uber.org/zap"

	"github.com/eventchat/eventchat/adapters/envelope"
	"github.com/eventchat/eventchat/adapters/ws/internal/wire"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/projections"
)

// request is a client frame once opened.
type request struct {
	Cmd  int             `json:"cmd"`
	ID   string          `json:"id,omitempty"`
	Data json.RawMessage `json:"data"`
}

// reply answers a request that carried an id, and any failed request.
type reply struct {
	Cmd  int    `json:"cmd"`
	ID   string `json:"id,omitempty"`
	Code string `json:"code"`
	Info string `json:"info"`
	Data any    `json:"data"`
}

// ackResult is the data of the reply to a read acknowledgement.
type ackResult struct {
	Position uint64 `json:"position"`
}

var heartbeatReply = []byte(`{"cmd":` + strconv.Itoa(projections.CmdHeartbeat) + `}`)

// handle opens one client message and runs it; every failure is answered
// with an error frame and leaves the connection usable. The plaintext is
// opened in text's spare capacity. A send returns once its message is
// queued to the log, with settle to answer it once durable; text is not
// read after handle returns.
func (c *conn) handle(text []byte) (settle func()) {
	plain, err := wire.Open(text[len(text):], text, c.aead)
	if err != nil {
		c.fail(request{}, fault.New(fault.Invalid, fault.MsgDecrypt))
		return nil
	}
	var req request
	if err := json.Unmarshal(plain, &req); err != nil {
		c.fail(request{}, fault.New(fault.Invalid, fault.MsgBadRequest))
		return nil
	}
	switch req.Cmd {
	case projections.CmdHeartbeat:
		if req.ID == "" {
			c.push(textFrame(heartbeatReply))
			return nil
		}
		c.succeed(req, nil)
	case projections.CmdMessage:
		return c.sendMessage(req)
	case projections.CmdReadAckIn:
		c.ackRead(req)
	case projections.CmdSessionChanged:
		c.operateSession(req)
	default:
		c.fail(req, fault.New(fault.Invalid, fault.MsgBadRequest))
	}
	return nil
}

// sendMessage queues a send, and returns what answers it once durable. A
// group's send rate counts the connection's earlier sends, so its check
// waits for them.
func (c *conn) sendMessage(req request) (settle func()) {
	var body commands.SendMessage
	if err := decodeData(req.Data, &body); err != nil {
		c.fail(req, err)
		return nil
	}
	ctx, cancel := context.WithTimeout(c.g.ctx, c.g.cfg.CommandTimeout)
	wait, err := c.g.cmds.QueueSendMessage(ctx, c.principal, body, c.unsettled.Wait)
	if err != nil {
		cancel()
		c.fail(req, err)
		return nil
	}
	return func() {
		defer cancel()
		res, err := wait()
		if err != nil {
			c.fail(req, err)
			return
		}
		if req.ID != "" {
			c.succeed(req, res)
		}
	}
}

func (c *conn) ackRead(req request) {
	var body commands.AckRead
	if err := decodeData(req.Data, &body); err != nil {
		c.fail(req, err)
		return
	}
	body.From = c.principal.MemberID // the reader is whoever holds the socket
	ctx, cancel := context.WithTimeout(c.g.ctx, c.g.cfg.CommandTimeout)
	defer cancel()
	pos, err := c.g.cmds.AckRead(ctx, c.principal, body)
	if err != nil {
		c.fail(req, err)
		return
	}
	if req.ID != "" {
		c.succeed(req, ackResult{Position: pos})
	}
}

// operateSession runs a command 49: AddTop, DelTop, Add, Del or Report on
// a conversation of whoever holds the socket (memberId is not trusted).
func (c *conn) operateSession(req request) {
	var body commands.SessionOperation
	if err := decodeData(req.Data, &body); err != nil {
		c.fail(req, err)
		return
	}
	body.MemberID = c.principal.MemberID
	ctx, cancel := context.WithTimeout(c.g.ctx, c.g.cfg.CommandTimeout)
	defer cancel()
	res, err := c.g.cmds.OperateSession(ctx, c.principal, body)
	if err != nil {
		c.fail(req, err)
		return
	}
	if req.ID != "" {
		c.succeed(req, res)
	}
}

func decodeData(data json.RawMessage, v any) error {
	if len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return nil
}

func (c *conn) succeed(req request, data any) {
	ok := envelope.OK(data, c.lang)
	c.answer(reply{Cmd: req.Cmd, ID: req.ID, Code: ok.Code, Info: ok.Info, Data: data})
}

// fail answers a refusal with the code and text REST would give it.
func (c *conn) fail(req request, err error) {
	if _, ok := fault.As(err); !ok {
		c.g.log.Error("ws command failed",
			zap.String("member", c.principal.MemberID), zap.Int("cmd", req.Cmd), zap.Error(err))
	}
	_, body := envelope.FromError(err, c.lang)
	c.answer(reply{Cmd: req.Cmd, ID: req.ID, Code: body.Code, Info: body.Info})
}

func (c *conn) answer(r reply) {
	plain, err := json.Marshal(r)
	if err != nil {
		c.g.log.Error("ws reply not encodable", zap.Int("cmd", r.Cmd), zap.Error(err))
		return
	}
	c.push(textFrame(plain))
}
