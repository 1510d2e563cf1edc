package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of the message life, kept beside the general table.
var lifeTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgNotYourMessage:     "只有发送者可以这样操作该消息",
		fault.MsgNotEditable:        "该消息不能编辑",
		fault.MsgRecallExpired:      "消息发送超过24小时，无法撤回",
		fault.MsgMessageRecalled:    "该消息已被撤回",
		fault.MsgTooManyMessages:    "一次最多100条消息",
		fault.MsgNoMessages:         "请先选择消息",
		fault.MsgForwardTooMany:     "一次最多转发10条记录！",
		fault.MsgForwardNone:        "请选择要转发的记录",
		fault.MsgForwardUnsupported: "该消息暂不支持转发",
		fault.MsgForwardNoTarget:    "请选择转发对象",
		fault.MsgTooManyTargets:     "一次最多100个接收者",
		fault.MsgParentMissing:      "被回复的消息不在此会话中",
		fault.MsgDeleteTypeInvalid:  "deleteMessageType 必须是 Bilateral 或 Unilateral",
		"all":                       "所有人",
		"[You were mentioned]":      "[有人@我]",
	},
	"vi_VN": {
		fault.MsgNotYourMessage:     "Chỉ người gửi mới có thể thao tác với tin nhắn này",
		fault.MsgNotEditable:        "Không thể chỉnh sửa tin nhắn này",
		fault.MsgRecallExpired:      "Chỉ có thể thu hồi tin nhắn trong vòng 24 giờ sau khi gửi",
		fault.MsgMessageRecalled:    "Tin nhắn này đã bị thu hồi",
		fault.MsgTooManyMessages:    "Tối đa 100 tin nhắn mỗi lần",
		fault.MsgNoMessages:         "Vui lòng chọn tin nhắn trước",
		fault.MsgForwardTooMany:     "Chỉ có thể chuyển tiếp tối đa 10 bản ghi mỗi lần!",
		fault.MsgForwardNone:        "Vui lòng chọn bản ghi để chuyển tiếp",
		fault.MsgForwardUnsupported: "Tin nhắn này hiện chưa thể chuyển tiếp",
		fault.MsgForwardNoTarget:    "Vui lòng chọn người nhận chuyển tiếp",
		fault.MsgTooManyTargets:     "Tối đa 100 người nhận mỗi lần",
		fault.MsgParentMissing:      "Tin nhắn được trả lời không thuộc cuộc trò chuyện này",
		fault.MsgDeleteTypeInvalid:  "deleteMessageType phải là Bilateral hoặc Unilateral",
		"all":                       "tất cả",
		"[You were mentioned]":      "[Có người nhắc đến bạn]",
	},
}
