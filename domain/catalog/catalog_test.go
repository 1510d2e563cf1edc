package catalog_test

import (
	"os"
	"reflect"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/catalog"
)

// sections splits docs/events.md into the text under each "### <type>"
// heading, by type.
func sections(doc string) map[string]string {
	out := map[string]string{}
	var name string
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "### "):
			name = strings.TrimSpace(strings.TrimPrefix(line, "### "))
			out[name] = ""
		case strings.HasPrefix(line, "## "):
			name = ""
		case name != "":
			out[name] += line + "\n"
		}
	}
	return out
}

// jsonFields lists the stored field names of t as the catalogue writes them:
// a nested struct's fields as parent.field, a list's as parent[].field.
func jsonFields(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, jsonFields(f.Type, prefix)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, prefix+name)
		et := f.Type
		for et.Kind() == reflect.Slice || et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if et.Kind() == reflect.Struct && et.PkgPath() != "time" {
			sep := "."
			if f.Type.Kind() == reflect.Slice {
				sep = "[]."
			}
			out = append(out, jsonFields(et, prefix+name+sep)...)
		}
	}
	return out
}

var _ = Describe("docs/events.md", func() {
	var docs map[string]string

	BeforeEach(func() {
		raw, err := os.ReadFile("../../docs/events.md")
		Expect(err).NotTo(HaveOccurred())
		docs = sections(string(raw))
	})

	It("has a section for every registered event type, and none for a type nobody registers", func() {
		r := catalog.Registry()
		var missing, unknown []string
		for typ := range r {
			if _, ok := docs[typ]; !ok {
				missing = append(missing, typ)
			}
		}
		for typ := range docs {
			if _, ok := r[typ]; !ok {
				unknown = append(unknown, typ)
			}
		}
		Expect(missing).To(BeEmpty(), "registered event types missing from docs/events.md")
		Expect(unknown).To(BeEmpty(), "docs/events.md sections of types the registry does not hold")
	})

	It("gives each type's stream, producers, consumers and every stored field", func() {
		for typ, mk := range catalog.Registry() {
			text, ok := docs[typ]
			if !ok {
				continue // reported by the spec above
			}
			for _, label := range []string{"- Stream: ", "- Produced by: ", "- Consumed by: "} {
				_, rest, found := strings.Cut(text, label)
				line, _, _ := strings.Cut(rest, "\n")
				Expect(found && strings.TrimSpace(line) != "").To(BeTrue(), "%s: %q is missing or empty", typ, label)
			}
			for _, field := range jsonFields(reflect.TypeOf(mk()).Elem(), "") {
				Expect(text).To(ContainSubstring("| `"+field+"` |"), "%s: field %s is not in its table", typ, field)
			}
		}
	})
})
