package imctl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// parseTopUp reads the topup commands: an operator lists a tenant's
// orders, confirms or rejects one, and adjusts a member's balance.
func parseTopUp(cmd string, args []string) (request, error) {
	switch {
	case cmd == "list" && len(args) == 1:
		return request{method: http.MethodGet, path: "/v1/admin/topup/list", query: url.Values{"tenant": {args[0]}, "pageSize": {"100"}},
			show: showTopUps}, nil
	case cmd == "confirm" && len(args) == 2:
		return request{method: http.MethodPut, path: "/v1/admin/topup/confirm", body: map[string]string{"tenant": args[0], "id": args[1]}}, nil
	case cmd == "reject" && len(args) >= 2:
		return request{method: http.MethodPut, path: "/v1/admin/topup/reject",
			body: map[string]string{"tenant": args[0], "id": args[1], "reason": strings.Join(args[2:], " ")}}, nil
	case cmd == "adjust" && len(args) >= 5:
		amount, err := parseMoney(args[3])
		if err != nil {
			return request{}, err
		}
		return request{method: http.MethodPut, path: "/v1/admin/topup/adjust", body: map[string]any{"tenant": args[0], "account": args[1],
			"id": args[2], "amount": amount, "reason": strings.Join(args[4:], " ")}}, nil
	case cmd == "list", cmd == "confirm", cmd == "reject", cmd == "adjust":
		return request{}, fmt.Errorf("topup %s: wrong arguments (see usage)", cmd)
	}
	return request{}, fmt.Errorf("unknown command %q", "topup "+cmd)
}

// parseMoney reads an amount such as 12, -3.5 or 10.25 into minor units.
func parseMoney(s string) (int64, error) {
	bad := fmt.Errorf("amount %q: want a number with at most two decimals, such as 12.50 or -3", s)
	neg := strings.HasPrefix(s, "-")
	whole, frac, dotted := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if whole == "" || len(frac) > 2 || (dotted && frac == "") {
		return 0, bad
	}
	for len(frac) < 2 {
		frac += "0"
	}
	units, err := strconv.ParseInt(whole, 10, 32)
	if err != nil || units < 0 {
		return 0, bad
	}
	cents, err := strconv.ParseInt(frac, 10, 8)
	if err != nil || cents < 0 {
		return 0, bad
	}
	v := units*100 + cents
	if neg {
		v = -v
	}
	return v, nil
}

func money(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// showTopUps prints a page of orders as a table.
func showTopUps(w io.Writer, data json.RawMessage) error {
	var page struct {
		Records []struct {
			ID         string `json:"id"`
			MemberID   string `json:"memberId"`
			Amount     int64  `json:"amount"`
			Status     string `json:"status"`
			Reason     string `json:"reason"`
			CreateTime int64  `json:"createTime"`
			ExpireTime int64  `json:"expireTime"`
		} `json:"records"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		return err
	}
	if page.Records == nil {
		return errors.New("not a page of orders")
	}
	fmt.Fprintf(w, "%d orders, %d shown\n", page.Total, len(page.Records))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tMEMBER\tAMOUNT\tSTATUS\tPLACED\tEXPIRES\tREASON")
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }
	for _, o := range page.Records {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.ID, o.MemberID, money(o.Amount), o.Status, at(o.CreateTime), at(o.ExpireTime), o.Reason)
	}
	return tw.Flush()
}
