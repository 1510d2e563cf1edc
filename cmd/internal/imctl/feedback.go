package imctl

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/eventchat/eventchat/projections"
)

// showFeedback prints a page of feedback as a table, the replies under
// their feedback.
func showFeedback(w io.Writer, data json.RawMessage) error {
	var page struct {
		Records []struct {
			projections.FeedbackDoc
			Account string `json:"account"`
			projections.FeedbackReplyDoc
		} `json:"records"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d feedback, %d shown\n", page.Total, len(page.Records))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACCOUNT\tTYPE\tSENT\tIMAGES\tCONTENT")
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, f := range page.Records {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", f.ID, f.Account, oneLine(f.Type), at(f.CreateTime), len(f.Images), oneLine(f.Content))
		if f.ReplyTime != 0 {
			fmt.Fprintf(tw, "\t\treply\t%s\t\t%s\n", at(f.ReplyTime), oneLine(f.Reply))
		}
	}
	return tw.Flush()
}
