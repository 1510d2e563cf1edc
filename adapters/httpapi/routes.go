package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
	"github.com/eventchat/eventchat/domain/fault"
)

// route is one API call: echo serves it and the OpenAPI document describes
// it, from the same entry.
type route struct {
	method  string
	path    string // below /v1
	summary string
	public  bool    // served without a token
	query   []param // query parameters
	body    any     // a value of the request body's type
	result  any     // a value of the envelope data's type
	handle  func(c echo.Context, p commands.Principal) error

	form    bool  // the body is multipart/form-data, read by the handler
	maxBody int64 // the body's cap; 0: MaxBody
	// streamed: the handler reads the body itself, to its end, through the
	// cap; other bodies are read whole before the handler runs.
	streamed   bool
	tokenQuery bool // the token may come as ?token= too, for <img src>
	lookup     bool // a query sent with a body: it waits for ?after= as GETs do
	searched   bool // reads the search model: ?after= waits for it too
	admin      bool // served to operators only: the bearer is an operator token
	// audit is the action on a tenant's history of a route served to
	// operators and auditors (an operator's or an auditor's token); "": none.
	// Its handler calls a.audited (or a.auditRefused) before anything else.
	audit string
	// contentType is the 200 answer's type when it is not the envelope.
	contentType string
}

// waits tells whether the route reads the read models and so honours
// ?after=. Audit routes read the log (their after is a cursor in it) or
// stores of their own.
func (r route) waits() bool { return (r.method == http.MethodGet && r.audit == "") || r.lookup }

type param struct {
	name     string
	required bool
	doc      string
}

const principalKey = "principal"

func (a *API) add(g *echo.Group, r route) {
	a.routes = append(a.routes, r)
	limit := r.maxBody
	if limit == 0 {
		limit = MaxBody
	}
	g.Add(r.method, r.path, func(c echo.Context) error {
		var p commands.Principal
		if r.audit != "" {
			who, err := a.authenticateAuditor(c)
			if err != nil {
				return err
			}
			c.Set(auditorKey, who)
			c.Set(auditActionKey, r.audit)
		} else if r.admin {
			op, err := a.authenticateOperator(c)
			if err != nil {
				return err
			}
			c.Set(operatorKey, op)
		} else if !r.public {
			var err error
			if p, err = a.authenticate(c, r.tokenQuery); err != nil {
				return err
			}
			c.Set(principalKey, p)
		}
		if err := capBody(c, limit, r.streamed); err != nil {
			if r.audit != "" {
				return a.auditRefused(c, audit.Filter{}, err)
			}
			return err
		}
		if r.waits() {
			if err := a.waitAfter(c, r.searched); err != nil {
				return err
			}
		}
		return r.handle(c, p)
	})
}

// capBody puts the body behind a reader that fails past limit, whatever
// its transfer encoding, and reads it whole unless the route streams it:
// a body over the cap is refused before the handler acts on any of it.
func capBody(c echo.Context, limit int64, streamed bool) error {
	req := c.Request()
	if req.ContentLength > limit {
		return fault.New(fault.TooLarge, fault.MsgBodyTooLarge)
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
	if streamed {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return readFault(err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

func (a *API) authenticate(c echo.Context, tokenQuery bool) (commands.Principal, error) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	token, found := strings.CutPrefix(h, "Bearer ")
	if !found && h == "" && tokenQuery {
		token, found = c.QueryParam("token"), true
	}
	if !found || token == "" {
		return commands.Principal{}, fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	p, _, err := a.deps.Tokens.Authenticate(c.Request().Context(), strings.TrimSpace(token))
	return p, err
}

const operatorKey = "operator"

func (a *API) authenticateOperator(c echo.Context) (commands.Operator, error) {
	token, err := bearer(c)
	if err != nil {
		return commands.Operator{}, err
	}
	return a.deps.Tokens.AuthenticateOperator(token, time.Now())
}

func bearer(c echo.Context) (string, error) {
	token, found := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
	if token = strings.TrimSpace(token); !found || token == "" {
		return "", fault.New(fault.Unauthorized, fault.MsgLoginExpired)
	}
	return token, nil
}

func operator(c echo.Context) commands.Operator {
	op, _ := c.Get(operatorKey).(commands.Operator)
	return op
}

// bind decodes a JSON body into v (read whole by capBody): one that is not
// JSON of v's shape is Invalid.
func bind(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	if err := dec.Decode(v); err != nil || dec.More() {
		return fault.New(fault.Invalid, fault.MsgBadRequest)
	}
	return nil
}
