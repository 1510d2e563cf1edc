package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of voice and video calls, kept beside the general table.
var callTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgCallMediaInvalid:   "media 必须是 voice 或 video",
		fault.MsgCallIDRequired:     "缺少 callId",
		fault.MsgCallNotFound:       "通话不存在",
		fault.MsgCallEnded:          "通话已结束",
		fault.MsgCallAnswered:       "通话已接听",
		fault.MsgCallNotAnswered:    "通话尚未接听",
		fault.MsgCallNotCaller:      "只有发起方可以这样操作",
		fault.MsgCallNotCallee:      "只有被呼叫方可以这样操作",
		fault.MsgInCall:             "您正在通话中",
		fault.MsgCallsStarting:      "通话功能暂不可用，请稍后再试",
		fault.MsgCallsNotConfigured: "此服务器未配置语音和视频通话",
	},
	"vi_VN": {
		fault.MsgCallMediaInvalid:   "media phải là voice hoặc video",
		fault.MsgCallIDRequired:     "Thiếu callId",
		fault.MsgCallNotFound:       "Không tìm thấy cuộc gọi",
		fault.MsgCallEnded:          "Cuộc gọi này đã kết thúc",
		fault.MsgCallAnswered:       "Cuộc gọi này đã được trả lời",
		fault.MsgCallNotAnswered:    "Cuộc gọi này chưa được trả lời",
		fault.MsgCallNotCaller:      "Chỉ người gọi mới có thể làm việc này",
		fault.MsgCallNotCallee:      "Chỉ người được gọi mới có thể làm việc này",
		fault.MsgInCall:             "Bạn đang trong một cuộc gọi",
		fault.MsgCallsStarting:      "Cuộc gọi chưa sẵn sàng, vui lòng thử lại sau",
		fault.MsgCallsNotConfigured: "Máy chủ này chưa cấu hình cuộc gọi thoại và video",
	},
}
