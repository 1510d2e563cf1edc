package envelope

import (
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/assistant"
	"github.com/eventchat/eventchat/domain/tenant"
)

// msgTooManyQuestions is the API's refusal of a member over its question
// limit (adapters/httpapi).
const msgTooManyQuestions = "too many questions, please try again in a minute"

// The texts of the chat assistant.
var assistantTexts = map[string]map[string]string{
	"zh_CN": {
		commands.MsgAssistantOff:          "此服务器已关闭聊天助手",
		commands.MsgAssistantNotSetUp:     "此服务器尚未设置聊天助手",
		commands.MsgAssistantKey:          "assistantKey 最多512个可打印字符，不能有空格",
		assistant.MsgQuestionEmpty:        "问题不能为空",
		assistant.MsgQuestionTooLong:      "问题太长：最多4000个字符",
		assistant.MsgModelNotOffered:      "此服务器不提供该模型",
		assistant.MsgStillAnswering:       "助手还在回答上一个问题",
		tenant.MsgSettingAssistantURL:     "assistantBaseURL 必须是不超过1024个字符的 http(s) 网址",
		tenant.MsgSettingAssistantModels:  "assistantModels：1到50个模型名，由字母、数字和 . _ : / - 组成，用逗号分隔",
		tenant.MsgSettingAssistantTimeout: "assistantTimeout 必须是1到600之间的秒数",
		msgTooManyQuestions:               "提问太频繁，请一分钟后再试",
	},
	"vi_VN": {
		commands.MsgAssistantOff:          "Máy chủ này đã tắt trợ lý trò chuyện",
		commands.MsgAssistantNotSetUp:     "Trợ lý trò chuyện chưa được thiết lập trên máy chủ này",
		commands.MsgAssistantKey:          "assistantKey tối đa 512 ký tự in được, không có khoảng trắng",
		assistant.MsgQuestionEmpty:        "Câu hỏi trống",
		assistant.MsgQuestionTooLong:      "Câu hỏi quá dài: tối đa 4000 ký tự",
		assistant.MsgModelNotOffered:      "Máy chủ này không cung cấp mô hình này",
		assistant.MsgStillAnswering:       "Trợ lý vẫn đang trả lời câu hỏi trước",
		tenant.MsgSettingAssistantURL:     "assistantBaseURL phải là URL http(s) tối đa 1024 ký tự",
		tenant.MsgSettingAssistantModels:  "assistantModels: 1 đến 50 tên mô hình gồm chữ, số và . _ : / -, cách nhau bằng dấu phẩy",
		tenant.MsgSettingAssistantTimeout: "assistantTimeout phải là số giây từ 1 đến 600",
		msgTooManyQuestions:               "Bạn hỏi quá nhiều, vui lòng thử lại sau một phút",
	},
}
