package sqliteread

// writeStatements run on the writer connection, inside Update.
type writeStatements struct {
	begin, commit, rollback *stmt

	setCheckpoint, lookupMessage, unreadIDs, markRead, raiseFloor, countUnread, getApply *stmt

	takeLease, leaseHolder, dropLease *stmt

	putMembers, insertMessages, getSessions, putSessions, putApplies, putFriends, putAuthSessions batch
}

// prepareWrites compiles every write statement once.
func prepareWrites(c *conn) (writeStatements, error) {
	var w writeStatements
	err := prepareAll(c, map[**stmt]string{
		&w.begin:         `BEGIN IMMEDIATE`,
		&w.commit:        `COMMIT`,
		&w.rollback:      `ROLLBACK`,
		&w.setCheckpoint: setCheckpointSQL,
		&w.lookupMessage: messageSeqSQL,
		&w.unreadIDs:     unreadIDsSQL,
		&w.raiseFloor:    raiseFloorSQL,
		&w.markRead:      markReadSQL,
		&w.countUnread:   countUnreadSQL,
		&w.getApply:      getApplySQL,
		&w.takeLease:     takeLeaseSQL,
		&w.leaseHolder:   leaseHolderSQL,
		&w.dropLease:     dropLeaseSQL,
	})
	if err != nil {
		return w, err
	}
	for dst, build := range map[*batch]func(int) string{
		&w.putMembers:      membersTable.upsert,
		&w.insertMessages:  messagesTable.insertIgnore,
		&w.getSessions:     getSessionsSQL,
		&w.putSessions:     sessionsTable.upsert,
		&w.putApplies:      appliesTable.upsert,
		&w.putFriends:      friendsTable.upsert,
		&w.putAuthSessions: authSessionsTable.upsert,
	} {
		b, err := prepareBatch(c, build)
		if err != nil {
			return w, err
		}
		*dst = b
	}
	return w, nil
}

// readStatements are the queries of one read connection; begin and commit
// hold a snapshot across queries.
type readStatements struct {
	begin, commit *stmt

	checkpoints, membersByID, findMember, tenantOf, sessions, historyNewest, historyBefore, historyAfter,
	messageSeq, friends, applies, countApplies, pairOfApply, authSession *stmt
}

func prepareReads(c *conn) (readStatements, error) {
	var r readStatements
	err := prepareAll(c, map[**stmt]string{
		&r.begin:         `BEGIN`,
		&r.commit:        `COMMIT`,
		&r.checkpoints:   checkpointsSQL,
		&r.membersByID:   membersByIDSQL,
		&r.findMember:    findMemberSQL,
		&r.tenantOf:      tenantOfSQL,
		&r.sessions:      sessionsSQL,
		&r.historyNewest: historyNewestSQL,
		&r.historyBefore: historyBeforeSQL,
		&r.historyAfter:  historyAfterSQL,
		&r.messageSeq:    messageSeqSQL,
		&r.friends:       friendsSQL,
		&r.applies:       appliesSQL,
		&r.countApplies:  countAppliesSQL,
		&r.pairOfApply:   pairOfApplySQL,
		&r.authSession:   authSessionSQL,
	})
	return r, err
}

func prepareAll(c *conn, queries map[**stmt]string) error {
	for dst, query := range queries {
		st, err := c.prepare(query)
		if err != nil {
			return err
		}
		*dst = st
	}
	return nil
}
