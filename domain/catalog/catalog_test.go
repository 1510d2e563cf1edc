package catalog_test

import (
	"fmt"
	"os"
	"path"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/eventchat/eventchat/domain/catalog"
	"github.com/eventchat/eventchat/domain/es"
)

// line is the rest of the line after label in text, and whether it is there.
func line(text, label string) (string, bool) {
	_, rest, found := strings.Cut(text, label)
	l, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(l), found
}

// funcName names a function as the catalogue does: package.function.
func funcName(f es.Upcaster) string {
	return path.Base(runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name())
}

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
				l, found := line(text, label)
				Expect(found && l != "").To(BeTrue(), "%s: %q is missing or empty", typ, label)
			}
			for _, field := range jsonFields(reflect.TypeOf(mk()).Elem(), "") {
				Expect(text).To(ContainSubstring("| `"+field+"` |"), "%s: field %s is not in its table", typ, field)
			}
		}
	})

	It("marks sealed exactly the fields each type declares personal", func() {
		for typ, mk := range catalog.Registry() {
			text, ok := docs[typ]
			if !ok {
				continue // reported by the spec above
			}
			var declared []string
			if p, ok := mk().(es.Personal); ok {
				_, declared = p.PersonalFields()
			}
			var marked []string
			for _, row := range strings.Split(text, "\n") {
				cells := strings.Split(row, "|")
				if len(cells) > 3 && strings.HasPrefix(strings.TrimSpace(cells[3]), "sealed") {
					marked = append(marked, strings.Trim(strings.TrimSpace(cells[1]), "`"))
				}
			}
			Expect(marked).To(ConsistOf(declared), "%s: the fields marked sealed", typ)
		}
	})

	It("gives each type's current version, its stored type and every upcaster, step by step", func() {
		for typ, mk := range catalog.Registry() {
			text, ok := docs[typ]
			if !ok {
				continue
			}
			e := mk()
			versions, _ := line(text, "- Versions: ")
			number, rest, _ := strings.Cut(versions, ",")
			documented, err := strconv.Atoi(number)
			Expect(err).NotTo(HaveOccurred(), "%s: no \"- Versions: <n>\" line", typ)
			Expect(documented).To(Equal(es.Version(e)), "%s: the version documented is not the current one", typ)
			upcasters, found := line(text, "- Upcasters: ")
			v, isVersioned := e.(es.Versioned)
			if !isVersioned {
				Expect(found).To(BeFalse(), "%s: upcasters documented for a type that has none", typ)
				continue
			}
			Expect(rest).To(ContainSubstring("stored as `"+es.StoredType(e)+"`"), "%s: stored type not named", typ)
			for i, up := range v.Upcasters() {
				step := fmt.Sprintf("v%d → v%d `%s`", i+1, i+2, funcName(up))
				Expect(upcasters).To(ContainSubstring(step), "%s: upcaster %s is not documented", typ, step)
			}
		}
	})
})
