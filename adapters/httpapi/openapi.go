package httpapi

import (
	"net/http"
	"reflect"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"
)

func (a *API) table() []route {
	var rs []route
	rs = append(rs, a.memberRoutes()...)
	rs = append(rs, a.friendRoutes()...)
	rs = append(rs, a.groupApplyRoutes()...)
	rs = append(rs, a.messageRoutes()...)
	rs = append(rs, a.searchRoutes()...)
	rs = append(rs, a.messageLifeRoutes()...)
	rs = append(rs, a.groupRoutes()...)
	rs = append(rs, a.groupChatRoutes()...)
	rs = append(rs, a.personalRoutes()...)
	rs = append(rs, a.uploadRoutes()...)
	rs = append(rs, a.conversationRoutes()...)
	rs = append(rs, a.callRoutes()...)
	rs = append(rs, a.noticeRoutes()...)
	rs = append(rs, a.realtimeRoutes()...)
	rs = append(rs, a.augmentRoutes()...)
	rs = append(rs, a.tenantRoutes()...)
	rs = append(rs, a.adminRoutes()...)
	rs = append(rs, a.auditRoutes()...)
	rs = append(rs, a.auditReplayRoutes()...)
	rs = append(rs, a.profileRoutes()...)
	rs = append(rs, a.topUpRoutes()...)
	rs = append(rs, a.assistantRoutes()...)
	return a.withLimits(rs)
}

// openAPI serves an OpenAPI 3 document built from the route table.
func (a *API) openAPI(c echo.Context) error {
	paths := map[string]map[string]any{}
	for _, r := range a.routes {
		op := map[string]any{
			"summary":   r.summary,
			"responses": map[string]any{"200": response(r.result), "default": response(nil)},
		}
		if r.contentType != "" {
			op["responses"] = map[string]any{"200": map[string]any{"description": "the answer itself, not the envelope",
				"content": map[string]any{r.contentType: map[string]any{"schema": schema(reflect.TypeOf(r.result))}}},
				"default": response(nil)}
		}
		switch {
		case r.audit != "":
			op["security"] = []any{map[string]any{"operator": []any{}}, map[string]any{"auditor": []any{}}}
		case r.admin:
			op["security"] = []any{map[string]any{"operator": []any{}}}
		case !r.public:
			op["security"] = []any{map[string]any{"bearer": []any{}}}
		}
		var params []any
		for _, q := range r.query {
			params = append(params, map[string]any{
				"name": q.name, "in": "query", "required": q.required, "description": q.doc,
				"schema": map[string]any{"type": "string"},
			})
		}
		if r.waits() && r.path != "/openapi.json" {
			params = append(params, map[string]any{
				"name": "after", "in": "query", "required": false,
				"description": "wait (at most 5 s) until the read models have folded this log position",
				"schema":      map[string]any{"type": "integer"},
			})
		}
		for _, m := range pathParams.FindAllStringSubmatch(r.path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		if params != nil {
			op["parameters"] = params
		}
		if r.form {
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"multipart/form-data": map[string]any{
				"schema": map[string]any{"type": "object", "properties": map[string]any{"file": map[string]any{"type": "string", "format": "binary"}}},
			}}}
		}
		if r.body != nil {
			op["requestBody"] = map[string]any{
				"required": true,
				"content":  map[string]any{"application/json": map[string]any{"schema": schema(reflect.TypeOf(r.body))}},
			}
		}
		p := "/v1" + pathParams.ReplaceAllString(r.path, "{$1}")
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.method)] = op
	}
	return c.JSON(http.StatusOK, map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{
			"title":       "eventchat",
			"version":     "1",
			"description": "Every JSON response is the envelope {code, data, info}; code is \"200\" on success.",
		},
		"components": map[string]any{"securitySchemes": map[string]any{
			"bearer": map[string]any{"type": "http", "scheme": "bearer"},
			"operator": map[string]any{"type": "http", "scheme": "bearer",
				"description": "an operator token, signed with the data directory's secret (imctl makes one)"},
			"auditor": map[string]any{"type": "http", "scheme": "bearer",
				"description": "an auditor token of one tenant (imctl audit token <tenant> --name <who>)"},
		}},
		"paths": paths,
	})
}

var pathParams = regexp.MustCompile(`:([A-Za-z]+)`)

func response(data any) map[string]any {
	dataSchema := map[string]any{"nullable": true}
	if data != nil {
		dataSchema = schema(reflect.TypeOf(data))
	}
	return map[string]any{
		"description": "envelope",
		"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"code": map[string]any{"type": "string"},
				"info": map[string]any{"type": "string"},
				"data": dataSchema,
			},
		}}},
	}
}

// schema describes a Go type as a JSON schema, following its json tags.
func schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32, reflect.Uint:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": schema(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		addFields(t, props)
		return map[string]any{"type": "object", "properties": props}
	}
	return map[string]any{}
}

func addFields(t reflect.Type, props map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			addFields(f.Type, props)
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = schema(f.Type)
	}
}
