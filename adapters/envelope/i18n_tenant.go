package envelope

import (
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/tenant"
)

// The texts of tenant settings, sensitive words and operators' changes.
var tenantTexts = map[string]map[string]string{
	"zh_CN": {
		commands.MsgSensitiveWords: "内容包含敏感词，请文明用语",
		commands.MsgCallsOff:       "此服务器已关闭语音和视频通话",
		commands.MsgBatchSendOff:   "此服务器已关闭群发助手",
		tenant.MsgSettingUnknown:   "未知的设置 %s",
		tenant.MsgSettingBool:      "%s 只能是 true 或 false",
		tenant.MsgSettingEnable:    "%s 只能是 Enable 或 Disable",
		tenant.MsgSettingURL:       "%s 必须是不超过1024个字符的网址或路径",
		tenant.MsgSettingLevel:     "未知的会员等级 %s：应为 Normal、Admin 或 System",
		tenant.MsgSettingWords:     "敏感词：最多500个，每个最多64个字符，用逗号分隔",
		tenant.MsgSettingsEmpty:    "请至少给出一项 key=value 设置",
		tenant.MsgSettingsTooMany:  "一次最多32项设置",
		tenant.MsgSettingDuplicate: "设置 %s 重复",
		msgTenantAdded:             "添加成功",
		msgTenantListed:            "已存在",
	},
	"vi_VN": {
		commands.MsgSensitiveWords: "Nội dung chứa từ nhạy cảm, vui lòng dùng ngôn ngữ văn minh",
		commands.MsgCallsOff:       "Máy chủ này đã tắt cuộc gọi thoại và video",
		commands.MsgBatchSendOff:   "Máy chủ này đã tắt trợ lý gửi hàng loạt",
		tenant.MsgSettingUnknown:   "Cài đặt không xác định %s",
		tenant.MsgSettingBool:      "%s phải là true hoặc false",
		tenant.MsgSettingEnable:    "%s phải là Enable hoặc Disable",
		tenant.MsgSettingURL:       "%s phải là URL hoặc đường dẫn tối đa 1024 ký tự",
		tenant.MsgSettingLevel:     "Cấp thành viên không xác định %s: cần Normal, Admin hoặc System",
		tenant.MsgSettingWords:     "Từ nhạy cảm: tối đa 500 từ, mỗi từ tối đa 64 ký tự, cách nhau bằng dấu phẩy",
		tenant.MsgSettingsEmpty:    "Hãy đưa ít nhất một cài đặt dạng key=value",
		tenant.MsgSettingsTooMany:  "Tối đa 32 cài đặt mỗi lần",
		tenant.MsgSettingDuplicate: "Cài đặt %s bị lặp",
		msgTenantAdded:             "Thêm thành công",
		msgTenantListed:            "Đã tồn tại",
	},
}

// The tenant checker's outcomes (adapters/httpapi names them too).
const (
	msgTenantAdded  = "added successfully"
	msgTenantListed = "already exists"
)
