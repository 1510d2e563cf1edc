package projections

import "encoding/json"

// delta builds a delta of env to members; data is encoded here, once.
func delta(env Envelope, cmd int, data any, to ...string) Delta {
	raw, err := json.Marshal(data)
	if err != nil {
		// Every value passed here is a plain struct or map of strings and
		// numbers, which always encodes.
		panic("projections: encode delta: " + err.Error())
	}
	return Delta{Tenant: env.Tenant, To: to, Cmd: cmd, Data: raw, Position: env.Position}
}

func (d Delta) forSession(id string) Delta {
	d.Session = id
	return d
}
