package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of system notices and of the delivery of messages to a device.
var noticeTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgNoticesNone:         "请先选择通知",
		fault.MsgNoticesTooMany:      "一次最多100条通知",
		fault.MsgNoticeIDInvalid:     "通知 id 必须是数字",
		fault.MsgNoticeNotFound:      "通知不存在",
		fault.MsgNoticeTabInvalid:    "tab 只能是 all、friends、system 或 groups",
		fault.MsgDeliveryNone:        "请给出已收到消息的 position 或 id",
		fault.MsgDeliveryAhead:       "position 超出了事件日志",
		fault.MsgPositionInvalid:     "position 必须是整数",
		fault.NoticeFriendRequest:    "%s 请求添加您为好友",
		fault.NoticeFriendAccepted:   "%s 通过了您的好友请求",
		fault.NoticeFriendRefused:    "%s 拒绝了您的好友请求",
		fault.NoticeGroupInvite:      "%s 邀请您加入群组 %s",
		fault.NoticeGroupOwner:       "%s 将群组 %s 转让给了您",
		fault.NoticeVerification:     "新设备（%s）登录了您的账号。验证码：%s，%d 分钟内有效",
		fault.NoticeFeedbackReply:    "后台管理员回复了您的反馈",
		fault.NoticeGroupJoinRequest: "%s 邀请 %s 加入群组 %s",
	},
	"vi_VN": {
		fault.MsgNoticesNone:         "Vui lòng chọn thông báo trước",
		fault.MsgNoticesTooMany:      "Tối đa 100 thông báo mỗi lần",
		fault.MsgNoticeIDInvalid:     "id của thông báo phải là chữ số",
		fault.MsgNoticeNotFound:      "Không tìm thấy thông báo",
		fault.MsgNoticeTabInvalid:    "tab phải là all, friends, system hoặc groups",
		fault.MsgDeliveryNone:        "Hãy cho biết position hoặc id của các tin nhắn đã nhận",
		fault.MsgDeliveryAhead:       "position vượt quá nhật ký sự kiện",
		fault.MsgPositionInvalid:     "position phải là số nguyên",
		fault.NoticeFriendRequest:    "%s đã gửi cho bạn lời mời kết bạn",
		fault.NoticeFriendAccepted:   "%s đã chấp nhận lời mời kết bạn của bạn",
		fault.NoticeFriendRefused:    "%s đã từ chối lời mời kết bạn của bạn",
		fault.NoticeGroupInvite:      "%s đã mời bạn vào nhóm %s",
		fault.NoticeGroupOwner:       "%s đã chuyển quyền trưởng nhóm %s cho bạn",
		fault.NoticeVerification:     "Một thiết bị mới (%s) đã đăng nhập vào tài khoản của bạn. Mã xác minh: %s, có hiệu lực trong %d phút",
		fault.NoticeFeedbackReply:    "Quản trị viên hệ thống đã trả lời góp ý của bạn",
		fault.NoticeGroupJoinRequest: "%s đã mời %s vào nhóm %s",
	},
}
