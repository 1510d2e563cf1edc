package authtoken

import (
	"errors"
	"regexp"
	"strconv"
	"time"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/tenant"
)

// auditorPrefix tells auditor tokens apart from members' and operators'.
const auditorPrefix = "au."

// MaxAuditorTTL bounds how long an auditor token is good.
const MaxAuditorTTL = 12 * time.Hour

var auditorName = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

// IssueAuditor returns a token of the auditor name of tenant, good until
// until (at most MaxAuditorTTL from now). Like operator tokens, whoever
// can read the data directory's secret can issue one.
func (t *Tokens) IssueAuditor(name, tenantCode string, now, until time.Time) (string, error) {
	if !auditorName.MatchString(name) {
		return "", errors.New("an auditor's name is 1 to 64 letters, digits, '.', '_', '@' or '-'")
	}
	if tenant.ValidateCode(tenantCode) != nil {
		return "", errors.New("a tenant code is 2 to 16 lower-case letters or digits")
	}
	if !until.After(now) || until.Sub(now) > MaxAuditorTTL {
		return "", errors.New("an auditor token is good for more than nothing and at most 12h")
	}
	return t.sign(auditorPrefix, "auditor", name, tenantCode, strconv.FormatInt(until.UnixMilli(), 10)), nil
}

// AuthenticateAuditor checks an auditor token at now.
func (t *Tokens) AuthenticateAuditor(token string, now time.Time) (commands.Auditor, error) {
	f, err := t.open(token, auditorPrefix, "auditor", 3, now, MaxAuditorTTL)
	if err != nil {
		return commands.Auditor{}, err
	}
	return commands.Auditor{Name: f[0], Tenant: f[1], Role: commands.RoleAuditor}, nil
}
