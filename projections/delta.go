package projections

// delta builds a delta of env to members.
func delta(env Envelope, cmd int, payload any, to ...string) Delta {
	return Delta{Tenant: env.Tenant, To: to, Cmd: cmd, Payload: payload, Position: env.Position}
}

func (d Delta) forSession(id string) Delta {
	d.Session = id
	return d
}
