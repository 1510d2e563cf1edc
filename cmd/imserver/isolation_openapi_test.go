package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// isoOp is one operation of /v1/openapi.json.
type isoOp struct {
	Method, Path string
	Security     []string // bearer, operator, auditor; empty: public
	Params       []isoParam
	Body         map[string]any // the JSON body's schema, if any
	Form         bool
}

type isoParam struct {
	Name, In string
	Required bool
}

func (o isoOp) key() string { return o.Method + " " + o.Path }

// staff tells whether only operators or auditors may call the operation.
func (o isoOp) staff() bool {
	for _, s := range o.Security {
		if s == "operator" || s == "auditor" {
			return true
		}
	}
	return false
}

// parseOps reads the operations of an OpenAPI document, sorted.
func parseOps(raw []byte) ([]isoOp, error) {
	var doc struct {
		Paths map[string]map[string]struct {
			Security   []map[string]any `json:"security"`
			Parameters []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Schema map[string]any `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	var ops []isoOp
	for path, methods := range doc.Paths {
		for method, o := range methods {
			op := isoOp{Method: strings.ToUpper(method), Path: path}
			for _, s := range o.Security {
				for name := range s {
					op.Security = append(op.Security, name)
				}
			}
			for _, p := range o.Parameters {
				op.Params = append(op.Params, isoParam{Name: p.Name, In: p.In, Required: p.Required})
			}
			if c, ok := o.RequestBody.Content["application/json"]; ok {
				op.Body = c.Schema
			}
			_, op.Form = o.RequestBody.Content["multipart/form-data"]
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].key() < ops[j].key() })
	return ops, nil
}

// An id is recognised by its name: id, ids, uuid, a camel-case name ending
// in Id, Ids or Uuid, one ending in Url or Path (a stored file), every path
// parameter, and a top-level JSON array body (a list of ids, named ids).
// A few names that hold ids without saying so are listed in idAliases.
var (
	idSuffix  = regexp.MustCompile(`^(id|ids|uuid)$|[a-z](Id|Ids|ID|IDs|Uuid)$|[a-z](Url|Path)$`)
	idAliases = map[string]string{
		"to":         "a member id, or a group id when chatType is Group",
		"recipients": "member ids of a mass message",
		"keyword":    "an account or phone, which finds a member",
	}
)

func isIDName(name string) bool { return idSuffix.MatchString(name) || idAliases[name] != "" }

// mediaContent tells whether a body field is a message's content beside its
// msgType: a media message's content names a stored file. When it is the
// one id field sent, it is a Picture naming one (kind media); otherwise it
// is a text.
func mediaContent(name string, siblings map[string]any) bool {
	_, typed := siblings["msgType"]
	return name == "content" && typed
}

// kindOf says which of the victims' ids a parameter of an operation takes;
// "" when the table does not know it.
func kindOf(path, name, chatType string) string {
	switch strings.ToLower(name) {
	case "memberid", "memberids", "friendmemberid", "friendid", "recipients":
		return "member"
	case "to":
		if chatType == "Group" {
			return "group"
		}
		return "member"
	case "groupid":
		return "group"
	case "messageid", "messageids", "parentmessageid":
		return "message"
	case "sessionid":
		return "session"
	case "callid":
		return "call"
	case "questionid":
		return "question"
	case "tenantid":
		return "modelTenant"
	case "favoriteid", "favoriteids":
		return "favourite"
	case "applyid", "applyids":
		return "apply"
	case "noticeid", "noticeids":
		return "notice"
	case "uuid":
		return "uuid"
	case "requestid":
		return "topupRequest"
	case "filepath", "fileurl", "headurl":
		return "file"
	case "keyword":
		return "account"
	case "content":
		return "media"
	case "tenant":
		if strings.HasPrefix(path, "/v1/sso/im/file/") {
			return "fileTenant"
		}
	case "name":
		if strings.HasPrefix(path, "/v1/sso/im/file/") {
			return "fileName"
		}
	case "id", "ids":
		switch {
		case strings.Contains(path, "/favoriteInfo/"):
			return "favourite"
		case strings.Contains(path, "/emojInfo/"):
			return "sticker"
		case strings.Contains(path, "/applyInfo/"):
			return "apply"
		case strings.Contains(path, "systemNotify"), strings.Contains(path, "SystemMessage"):
			return "notice"
		case strings.Contains(path, "/friendInfo/"):
			return "member"
		case strings.Contains(path, "/topup/"):
			return "topup"
		case strings.HasPrefix(path, "/v1/message/"):
			return "message"
		}
	}
	return ""
}

// isoField is an id-taking parameter or body field of an operation.
type isoField struct {
	Where string // query, path, body
	Name  string // a dotted path in the body: targets[].to
	List  bool   // a list of ids
}

// base is the field's own name, without the body path leading to it.
func (f isoField) base() string { return f.Name[strings.LastIndex(f.Name, ".")+1:] }

// idFields lists the id-taking parameters and body fields of op.
func idFields(op isoOp) []isoField {
	var out []isoField
	for _, p := range op.Params {
		if p.In == "path" || isIDName(p.Name) {
			out = append(out, isoField{p.In, p.Name, queryList(p.Name)})
		}
	}
	var walk func(s map[string]any, prefix string)
	walk = func(s map[string]any, prefix string) {
		switch s["type"] {
		case "object":
			props, _ := s["properties"].(map[string]any)
			for name, sub := range props {
				sm, _ := sub.(map[string]any)
				if isIDName(name) || mediaContent(name, props) {
					out = append(out, isoField{"body", prefix + name, sm["type"] == "array"})
				} else {
					walk(sm, prefix+name+".")
				}
			}
		case "array":
			items, _ := s["items"].(map[string]any)
			if prefix == "" && items["type"] == "string" {
				out = append(out, isoField{"body", "ids", true})
				return
			}
			walk(items, strings.TrimSuffix(prefix, ".")+"[].")
		}
	}
	if op.Body != nil {
		walk(op.Body, "")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Where+out[i].Name < out[j].Where+out[j].Name })
	return out
}

// queryList tells whether a query parameter holds a comma-separated list.
func queryList(name string) bool { return strings.HasSuffix(name, "s") && name != "uuid" }

// hasChatType tells whether op takes a chatType anywhere.
func hasChatType(op isoOp) bool {
	for _, p := range op.Params {
		if p.Name == "chatType" {
			return true
		}
	}
	raw, _ := json.Marshal(op.Body)
	return bytes.Contains(raw, []byte(`"chatType"`))
}

// isoDefaults are plausible values of the fields that are not ids. Other
// fields are left out of bodies; other required query parameters get "x".
var isoDefaults = map[string]any{
	"content": "hi", "status": "accepted", "role": "Admin", "minutes": 10, "nickname": "nick", "name": "Team",
	"notice": "n", "remark": "r", "media": "voice", "on": true, "allowLeave": true, "reply": "r", "width": 4,
	"height": 3, "pageSize": "20", "curPage": "1", "queryType": "Up", "deleteMessageType": "Bilateral",
	// A search looks for the text of the victims' messages.
	"q": "secret",
}

// isoFill gives the values of one request: the chat type and which of
// several values a single id takes, and the ids of each kind.
type isoFill struct {
	chatType string
	variant  int
	values   func(kind string) []string
	only     string // when set, the one id field taking values; the others take others or are left out
	others   func(kind string) []string
}

// skip tells whether an id field is left out of a request: all but the
// one, when only one is sent, and the other chat type's id, since a route
// refuses a friend's id and a group's id together.
func (f isoFill) skip(name string) bool {
	return (f.only != "" && name != f.only && f.others == nil) ||
		(f.chatType == "Friend" && name == "groupId") || (f.chatType == "Group" && name == "friendMemberId")
}

// isoRequest is one request built from an operation.
type isoRequest struct {
	Method, URL string
	Body        []byte
	Unknown     []string // id fields the table has no value for
}

func (f isoFill) id(path, name string, list bool, unknown *[]string) any {
	kind := kindOf(path, name, f.chatType)
	values := f.values
	if f.only != "" && name != f.only && f.others != nil {
		values = f.others
	}
	vs := []string(nil)
	if kind != "" {
		vs = values(kind)
	}
	if len(vs) == 0 {
		*unknown = append(*unknown, name)
		vs = []string{"1234567890123456789"}
	}
	if list {
		return vs
	}
	return vs[f.variant%len(vs)]
}

// build fills op's id fields from f and the rest from isoDefaults.
func build(op isoOp, f isoFill) isoRequest {
	r := isoRequest{Method: op.Method}
	path := op.Path
	q := url.Values{}
	for _, p := range op.Params {
		switch {
		case p.In == "path":
			v := f.id(op.Path, p.Name, false, &r.Unknown).(string)
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(v))
		case p.Name == "chatType":
			q.Set(p.Name, f.chatType)
		case isIDName(p.Name):
			if f.skip(p.Name) {
				continue
			}
			switch v := f.id(op.Path, p.Name, queryList(p.Name), &r.Unknown).(type) {
			case string:
				q.Set(p.Name, v)
			case []string:
				q.Set(p.Name, strings.Join(v, ","))
			}
		case p.Required:
			if d, ok := isoDefaults[p.Name]; ok {
				q.Set(p.Name, fmt.Sprint(d))
			} else {
				q.Set(p.Name, "x")
			}
		}
	}
	r.URL = path
	if len(q) > 0 {
		r.URL += "?" + q.Encode()
	}
	var value func(s map[string]any, name string) (any, bool)
	value = func(s map[string]any, name string) (any, bool) {
		base := name[strings.LastIndex(name, ".")+1:]
		base = strings.TrimPrefix(base, "[]")
		switch {
		case isIDName(base):
			return f.id(op.Path, base, s["type"] == "array", &r.Unknown), true
		case base == "chatType":
			return f.chatType, true
		case s["type"] == "object":
			out := map[string]any{}
			props, _ := s["properties"].(map[string]any)
			for p, sub := range props {
				sm, _ := sub.(map[string]any)
				if isIDName(p) && f.skip(p) {
					continue
				}
				if mediaContent(p, props) && f.only == p {
					out[p] = f.id(op.Path, p, false, &r.Unknown)
					out["msgType"] = "Picture"
					continue
				}
				if _, set := out[p]; set {
					continue
				}
				if v, ok := value(sm, strings.TrimPrefix(name+"."+p, ".")); ok {
					out[p] = v
				}
			}
			return out, true
		case s["type"] == "array":
			items, _ := s["items"].(map[string]any)
			if v, ok := value(items, name+"[]"); ok && items["type"] == "object" {
				return []any{v}, true
			}
			return nil, false
		}
		d, ok := isoDefaults[base]
		return d, ok
	}
	if op.Body != nil {
		var body any
		if op.Body["type"] == "array" {
			body = f.id(op.Path, "ids", true, &r.Unknown)
		} else {
			body, _ = value(op.Body, "")
		}
		r.Body, _ = json.Marshal(body)
	}
	return r
}

// scramble makes a made-up value of the same shape: each digit and hex
// letter replaced at random, but a leading digit, so that an id keeps its
// magnitude.
func scramble(v string) string {
	b := []byte(v)
	for i, c := range b {
		switch {
		case i == 0 && c >= '0' && c <= '9':
		case c >= '0' && c <= '9':
			b[i] = byte('0' + rand.IntN(10))
		case c >= 'a' && c <= 'f':
			b[i] = byte('a' + rand.IntN(6))
		}
	}
	return string(b)
}

// isoAnswer is what the server answered.
type isoAnswer struct {
	Status int
	Raw    []byte
	Code   string
	Info   string
	Err    error
}

func (a isoAnswer) String() string {
	if a.Err != nil {
		return "error " + a.Err.Error()
	}
	raw := strings.TrimSpace(string(a.Raw))
	if len(raw) > 300 {
		raw = raw[:300] + "…"
	}
	return fmt.Sprintf("%d %s", a.Status, raw)
}

// do sends r with token; it never fails the spec, so that answers can be
// gathered and judged together.
func (s *testServer) do(r isoRequest, token string) (a isoAnswer) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequest(r.Method, s.base+r.URL, body)
	if err != nil {
		a.Err = err
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.Err = err
		return a
	}
	defer resp.Body.Close()
	a.Status = resp.StatusCode
	a.Raw, a.Err = io.ReadAll(resp.Body)
	var env envelope
	if json.Unmarshal(a.Raw, &env) == nil {
		a.Code, a.Info = env.Code, env.Info
	}
	return a
}

// isoVolatile are the fields that differ between two writes that are
// otherwise the same: what a new record gets.
var isoVolatile = []string{"position", "id", "uuid", "groupId", "callId", "serverReceiveTime", "createTime", "updateTime", "startTime", "time", "upTo"}

// normalised is an answer's body without the isoVolatile fields.
func normalised(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range isoVolatile {
				delete(x, k)
			}
			for k, e := range x {
				x[k] = strip(e)
			}
		case []any:
			for i, e := range x {
				x[i] = strip(e)
			}
		}
		return v
	}
	out, _ := json.Marshal(strip(v))
	return string(out)
}
