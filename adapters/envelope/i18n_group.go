package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of groups, kept beside the general table.
var groupTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgGroupNotFound:      "群组不存在",
		fault.MsgGroupDissolved:     "该群已解散",
		fault.MsgNotGroupMember:     "不是该群成员",
		fault.MsgGroupNameEmpty:     "群名称不能为空",
		fault.MsgGroupNameTooLong:   "群名称最多64个字符",
		fault.MsgGroupNoticeTooLong: "群公告最多2000个字符",
		fault.MsgGroupMembersEmpty:  "群成员不能为空",
		fault.MsgInviteTooMany:      "每次最多邀请100位好友",
		fault.MsgGroupRankTooLow:    "只能对群内角色低于您的成员执行此操作",
		fault.MsgGroupRoleInvalid:   "角色必须是 Admin 或 Normal",
		fault.MsgOwnerCannotLeave:   "群主不能退群：请转让群主或解散该群",
		fault.MsgLeaveNotAllowed:    "该群不允许成员退群",
		fault.MsgMuteUntilPast:      "禁言结束时间必须在将来",
		fault.MsgNicknameTooLong:    "群昵称最多32个字符",
		fault.MsgSendRateInvalid:    "发言频率必须是 NoLimit、Backend、TenPerMinute 或 FivePerMinute",
		fault.MsgMuted:              "您已被禁言，可以私聊群主申请开放发言！",
		fault.MsgSendTooFast:        "您在本群发言过快，请稍后再试",
	},
	"vi_VN": {
		fault.MsgGroupNotFound:      "Không tìm thấy nhóm",
		fault.MsgGroupDissolved:     "Nhóm này đã bị giải tán",
		fault.MsgNotGroupMember:     "Không phải thành viên của nhóm này",
		fault.MsgGroupNameEmpty:     "Tên nhóm không được để trống",
		fault.MsgGroupNameTooLong:   "Tên nhóm tối đa 64 ký tự",
		fault.MsgGroupNoticeTooLong: "Thông báo nhóm tối đa 2000 ký tự",
		fault.MsgGroupMembersEmpty:  "Thành viên nhóm không được để trống",
		fault.MsgInviteTooMany:      "Chỉ mời tối đa 100 bạn bè mỗi lần",
		fault.MsgGroupRankTooLow:    "Bạn chỉ có thể làm điều này với thành viên có vai trò thấp hơn bạn",
		fault.MsgGroupRoleInvalid:   "Vai trò phải là Admin hoặc Normal",
		fault.MsgOwnerCannotLeave:   "Trưởng nhóm không thể rời nhóm: hãy chuyển quyền hoặc giải tán nhóm",
		fault.MsgLeaveNotAllowed:    "Nhóm này không cho phép thành viên rời nhóm",
		fault.MsgMuteUntilPast:      "Thời điểm hết cấm nói phải ở tương lai",
		fault.MsgNicknameTooLong:    "Biệt danh tối đa 32 ký tự",
		fault.MsgSendRateInvalid:    "sendRate phải là NoLimit, Backend, TenPerMinute hoặc FivePerMinute",
		fault.MsgMuted:              "Bạn đã bị cấm nói trong nhóm này, bạn có thể nhắn riêng cho trưởng nhóm để xin mở quyền phát biểu!",
		fault.MsgSendTooFast:        "Bạn gửi tin nhắn quá nhanh trong nhóm này, vui lòng thử lại sau",
	},
}
