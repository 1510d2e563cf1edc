package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of friend management, kept beside the general table.
var friendTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgRemarkTooLong:         "备注过长，最多 200 个字符",
		fault.MsgBlockedByFriend:       "对方已拒收您的消息",
		fault.MsgApplyIDsEmpty:         "请先选择申请",
		fault.MsgTooManyApplies:        "一次最多处理 99 条申请",
		fault.MsgFriendCategoryMissing: "好友分组不存在",
	},
	"vi_VN": {
		fault.MsgRemarkTooLong:         "Ghi chú quá dài, tối đa 200 ký tự",
		fault.MsgBlockedByFriend:       "Người bạn này không nhận tin nhắn của bạn",
		fault.MsgApplyIDsEmpty:         "Hãy chọn lời mời trước",
		fault.MsgTooManyApplies:        "Tối đa 99 lời mời mỗi lần",
		fault.MsgFriendCategoryMissing: "Không tìm thấy nhóm bạn bè",
	},
}
