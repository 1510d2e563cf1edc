package sqliteread

import "github.com/eventchat/eventchat/adapters/sqlitec"

// writeStatements run on the writer connection, inside Update.
type writeStatements struct {
	begin, commit, rollback *sqlitec.Stmt

	setCheckpoint, lookupMessage, changes, unreadIDs, markRead, raiseFloor, countUnread, getApply, getMembers *sqlitec.Stmt

	getMessage, updateMessage, setClearFloor, clearFloor, newest, after, from *sqlitec.Stmt

	groupSessions, deleteSession *sqlitec.Stmt

	deleteMention, deleteMessageMentions, deleteSessionMentions *sqlitec.Stmt

	getGroup, getGroupMember, allGroupMembers, deleteGroupMember *sqlitec.Stmt
	getFriend, deleteFriend, getGroupApply                       *sqlitec.Stmt
	deletePersonal, clearPersonal                                *sqlitec.Stmt
	getNotice, unreadNotices, deleteNotice                       *sqlitec.Stmt
	groupsOf, appliesFrom, noticesBy, allFriends, personalOf     *sqlitec.Stmt
	groupsNoticedBy                                              *sqlitec.Stmt

	takeLease, leaseHolder, dropLease *sqlitec.Stmt

	putMembers, insertMessages, getSessions, putSessions, putApplies, putFriends, putAuthSessions sqlitec.Batch
	putMentions, putGroups, putGroupMembers, putPersonal, putGroupApplies, putNotices             sqlitec.Batch
}

// prepareWrites compiles every write statement once.
func prepareWrites(c *sqlitec.Conn) (writeStatements, error) {
	var w writeStatements
	err := c.PrepareAll(map[**sqlitec.Stmt]string{
		&w.begin:         `BEGIN IMMEDIATE`,
		&w.commit:        `COMMIT`,
		&w.rollback:      `ROLLBACK`,
		&w.setCheckpoint: setCheckpointSQL,
		&w.lookupMessage: messageSeqSQL,
		&w.changes:       `SELECT changes()`,
		&w.unreadIDs:     unreadIDsSQL,
		&w.raiseFloor:    raiseFloorSQL,
		&w.markRead:      markReadSQL,
		&w.countUnread:   countUnreadSQL,
		&w.getApply:      getApplySQL,
		&w.getMembers:    membersByIDSQL,
		&w.takeLease:     takeLeaseSQL,
		&w.leaseHolder:   leaseHolderSQL,
		&w.dropLease:     dropLeaseSQL,
		&w.getMessage:    messageByIDSQL,
		&w.updateMessage: updateMessageSQL,
		&w.setClearFloor: setClearFloorSQL,
		&w.clearFloor:    clearFloorSQL,
		&w.newest:        historyNewestSQL,
		&w.after:         historyAfterSQL,
		&w.from:          messagesFromSQL,
		&w.groupSessions: groupSessionsSQL,
		&w.deleteSession: `DELETE FROM sessions WHERE member = ? AND peer = ?`,

		&w.deleteMention:         `DELETE FROM mentions WHERE member = ? AND message_id = ?`,
		&w.deleteMessageMentions: `DELETE FROM mentions WHERE message_id = ?`,
		&w.deleteSessionMentions: `DELETE FROM mentions WHERE member = ? AND session_id = ?`,

		&w.getGroup:          groupSQL,
		&w.getGroupMember:    groupMemberSQL,
		&w.allGroupMembers:   groupMembersSQL,
		&w.deleteGroupMember: `DELETE FROM group_members WHERE group_id = ? AND member = ?`,
		&w.getFriend:         friendSQL,
		&w.getGroupApply:     getGroupApplySQL,
		&w.deleteFriend:      `DELETE FROM friends WHERE member = ? AND friend_id = ?`,
		&w.deletePersonal:    `DELETE FROM personal_items WHERE member = ? AND kind = ? AND id = ?`,
		&w.clearPersonal:     `DELETE FROM personal_items WHERE member = ? AND kind = ?`,
		&w.getNotice:         noticeByIDSQL,
		&w.unreadNotices:     unreadNoticesSQL,
		&w.deleteNotice:      deleteNoticeSQL,
		&w.groupsOf:          memberGroupsSQL,
		&w.appliesFrom:       appliesFromSQL,
		&w.noticesBy:         noticesBySQL,
		&w.allFriends:        friendsSQL,
		&w.personalOf:        personalOfSQL,
		&w.groupsNoticedBy:   groupsNoticedBySQL,
	})
	if err != nil {
		return w, err
	}
	for dst, build := range map[*sqlitec.Batch]func(int) string{
		&w.putMembers:      membersTable.upsert,
		&w.insertMessages:  messagesTable.insertIgnore,
		&w.getSessions:     getSessionsSQL,
		&w.putSessions:     sessionsTable.upsert,
		&w.putApplies:      appliesTable.upsert,
		&w.putFriends:      friendsTable.upsert,
		&w.putAuthSessions: authSessionsTable.upsert,
		&w.putMentions:     mentionRows.upsert,
		&w.putGroups:       groupRows.upsert,
		&w.putGroupMembers: groupMemberRows.upsert,
		&w.putPersonal:     personalRows.upsert,
		&w.putGroupApplies: groupAppliesRows.upsert,
		&w.putNotices:      noticeRows.upsert,
	} {
		b, err := c.PrepareBatch(maxChunkRows, build)
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
	begin, commit *sqlitec.Stmt

	checkpoints, membersByID, findMember, sessions, historyNewest, historyBefore, historyAfter,
	friends, applies, countApplies, pairOfApply, authSession *sqlitec.Stmt

	messageByID, clearFloor, mentions *sqlitec.Stmt

	group, groupMember, groupMembers, memberGroups      *sqlitec.Stmt
	groupReads                                          *sqlitec.Stmt
	personalPage, personalCount, personalByID           *sqlitec.Stmt
	groupApplies, countGroupApplies, groupOfApply       *sqlitec.Stmt
	noticesPage, noticesCount, noticeByID, noticeCounts *sqlitec.Stmt
	searchChats, searchRow, searchMatch, searchScan     *sqlitec.Stmt
	searchSize, searchRowid                             *sqlitec.Stmt
}

func prepareReads(c *sqlitec.Conn) (readStatements, error) {
	var r readStatements
	err := c.PrepareAll(map[**sqlitec.Stmt]string{
		&r.begin:             `BEGIN`,
		&r.commit:            `COMMIT`,
		&r.checkpoints:       checkpointsSQL,
		&r.membersByID:       membersByIDSQL,
		&r.findMember:        findMemberSQL,
		&r.sessions:          sessionsSQL,
		&r.historyNewest:     historyNewestSQL,
		&r.historyBefore:     historyBeforeSQL,
		&r.historyAfter:      historyAfterSQL,
		&r.friends:           friendsSQL,
		&r.applies:           appliesSQL,
		&r.countApplies:      countAppliesSQL,
		&r.pairOfApply:       pairOfApplySQL,
		&r.authSession:       authSessionSQL,
		&r.messageByID:       messageByIDSQL,
		&r.clearFloor:        clearFloorSQL,
		&r.mentions:          mentionsSQL,
		&r.group:             groupSQL,
		&r.groupMember:       groupMemberSQL,
		&r.groupMembers:      groupMembersSQL,
		&r.memberGroups:      memberGroupsSQL,
		&r.groupReads:        groupReadsSQL,
		&r.personalPage:      personalPageSQL,
		&r.personalCount:     personalCountSQL,
		&r.personalByID:      personalByIDSQL,
		&r.groupApplies:      groupAppliesSQL,
		&r.countGroupApplies: countGroupAppliesSQL,
		&r.groupOfApply:      groupOfApplySQL,
		&r.noticesPage:       noticesPageSQL,
		&r.noticesCount:      noticesCountSQL,
		&r.noticeByID:        noticeByIDSQL,
		&r.noticeCounts:      noticeCountsSQL,
		&r.searchChats:       searchChatsSQL,
		&r.searchRow:         searchRowSQL,
		&r.searchMatch:       searchMatchSQL,
		&r.searchScan:        searchScanSQL,
		&r.searchSize:        searchSizeSQL,
		&r.searchRowid:       searchRowidSQL,
	})
	return r, err
}
