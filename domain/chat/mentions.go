package chat

import (
	"regexp"
	"strings"
)

// MentionAll is the member id that mentions everyone in a chat.
const MentionAll = "0000000000000000000"

// mentionPattern is a mention in an AtText: the member id in square
// brackets after an at sign.
var mentionPattern = regexp.MustCompile(`@\[([0-9]{1,19})\]`)

// Mentions returns the member ids content mentions, each once, in order.
func Mentions(content string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range mentionPattern.FindAllStringSubmatch(content, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// ResolveMentions writes each mention of content as @ and the name that
// name gives its member id; a mention name cannot resolve stays as it is.
func ResolveMentions(content string, name func(id string) (string, bool)) string {
	if !strings.Contains(content, "@[") {
		return content
	}
	return mentionPattern.ReplaceAllStringFunc(content, func(m string) string {
		if n, ok := name(m[2 : len(m)-1]); ok {
			return "@" + n
		}
		return m
	})
}
