package envelope

import (
	"fmt"
	"strings"

	"github.com/eventchat/eventchat/domain/fault"
)

// Language normalises an Accept-Language value to en, zh_CN or vi_VN.
func Language(accept string) string {
	a := strings.ToLower(strings.ReplaceAll(accept, "-", "_"))
	switch {
	case strings.HasPrefix(a, "zh"):
		return "zh_CN"
	case strings.HasPrefix(a, "vi"):
		return "vi_VN"
	}
	return "en"
}

// Translate returns the text of key in lang, falling back to the key, which
// is the English text.
func Translate(lang, key string) string {
	if t, ok := texts[lang][key]; ok {
		return t
	}
	return key
}

// Translatef translates key and substitutes args.
func Translatef(lang, key string, args ...any) string {
	t := Translate(lang, key)
	if len(args) > 0 {
		return fmt.Sprintf(t, args...)
	}
	return t
}

// Each feature keeps its texts in a table of its own beside this one; init
// merges them into texts.
func init() {
	for _, table := range []map[string]map[string]string{lifeTexts, groupTexts, mediaTexts, callTexts, friendTexts, noticeTexts, tenantTexts, profileTexts, auditTexts, replayTexts, assistantTexts, searchTexts} {
		for lang, entries := range table {
			for key, text := range entries {
				texts[lang][key] = text
			}
		}
	}
}

var texts = map[string]map[string]string{
	"zh_CN": {
		"success":                   "成功",
		msgInternal:                 "服务器错误，请稍后再试",
		fault.MsgBadRequest:         "请求无效",
		fault.MsgLoginExpired:       "登录已过期，请重新登录",
		fault.MsgForbidden:          "您无权执行此操作",
		fault.MsgNotFound:           "未找到",
		fault.MsgBodyTooLarge:       "请求内容过大",
		fault.MsgContentTooLong:     "消息内容过长",
		fault.MsgPhoneEmpty:         "手机号不能为空",
		fault.MsgPhoneInvalid:       "仅支持中国大陆手机号",
		fault.MsgSMSCodeRequired:    "请输入验证码",
		fault.MsgSMSCodeInvalid:     "验证码错误或已过期",
		fault.MsgSMSCodeWrong:       "验证码错误，还可尝试 %d 次",
		fault.MsgSMSCodeVoid:        "验证码错误次数过多，请重新获取验证码",
		fault.MsgSMSCodeUsed:        "该验证码已使用，请重新获取验证码",
		fault.MsgSMSTypeInvalid:     "未知的验证码类型",
		fault.MsgSMSTooOften:        "验证码发送过于频繁，请稍后再试",
		fault.MsgAccountEmpty:       "账号不能为空",
		fault.MsgAccountInvalid:     "账号至少6位，只能包含字母和数字",
		fault.MsgAccountInUse:       "账号已被使用",
		fault.MsgPhoneInUse:         "该手机号已注册",
		fault.MsgPasswordEmpty:      "密码不能为空",
		fault.MsgPasswordTooShort:   "密码太短，至少4位",
		fault.MsgPasswordInvalid:    "密码只能包含字母和数字",
		fault.MsgTenantEmpty:        "服务器ID不能为空",
		fault.MsgTenantInvalid:      "租户号无效",
		fault.MsgWrongPassword:      "密码错误，请输入正确的密码",
		fault.MsgBanned:             "您已被后台管理员封禁",
		fault.MsgNotFriend:          "您还不是好友，请先添加",
		fault.MsgFriendMissing:      "好友不在好友列表中或已被删除",
		fault.MsgAlreadyFriends:     "你们已经是好友了",
		fault.MsgSelfFriend:         "不能添加自己为好友",
		fault.MsgAlreadyProcessed:   "所选项目已处理",
		fault.MsgApplyNotFound:      "好友申请不存在",
		fault.MsgMemberNotFound:     "用户不存在",
		fault.MsgMessageNotFound:    "消息不存在",
		fault.MsgContentEmpty:       "会话内容为空",
		fault.MsgChatTypeInvalid:    "chatType 必须是 Friend 或 Group",
		fault.MsgMsgTypeUnsupported: "不支持的消息类型",
		fault.MsgUUIDRequired:       "缺少 uuid",
		fault.MsgUUIDInvalid:        "uuid 必须是1到64位字母、数字、'-' 或 '_'",
		fault.MsgGroupNotSupported:  "群聊暂不可用",
		fault.MsgStatusInvalid:      "状态必须是 accepted 或 rejected",
		fault.MsgTooManyRequests:    "请求过于频繁，请稍后再试",
		fault.MsgPinLimit:           "置顶聊天数量已超过上限，请取消其他置顶后重试",
		fault.MsgConversationTarget: "请提供与 chatType 相符的 friendMemberId 或 groupId",
		fault.MsgOperationInvalid:   "operationType 必须是 Add、Del、Report、AddTop 或 DelTop",
		fault.MsgConcurrentChange:   "该内容正在别处同时被修改，请重试",
		fault.MsgBusy:               "服务器繁忙，请稍后重试",
	},
	"vi_VN": {
		"success":                   "Thành công",
		msgInternal:                 "Lỗi máy chủ, vui lòng thử lại sau",
		fault.MsgBadRequest:         "Yêu cầu không hợp lệ",
		fault.MsgLoginExpired:       "Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại",
		fault.MsgForbidden:          "Bạn không được phép làm việc này",
		fault.MsgNotFound:           "Không tìm thấy",
		fault.MsgBodyTooLarge:       "Nội dung yêu cầu quá lớn",
		fault.MsgContentTooLong:     "Nội dung tin nhắn quá dài",
		fault.MsgPhoneEmpty:         "Số điện thoại không được để trống",
		fault.MsgPhoneInvalid:       "Chỉ hỗ trợ số di động Trung Quốc đại lục",
		fault.MsgSMSCodeRequired:    "Vui lòng nhập mã xác minh",
		fault.MsgSMSCodeInvalid:     "Mã xác minh sai hoặc đã hết hạn",
		fault.MsgSMSCodeWrong:       "Mã xác minh sai, còn %d lần thử",
		fault.MsgSMSCodeVoid:        "Nhập sai mã xác minh quá nhiều lần, vui lòng lấy mã mới",
		fault.MsgSMSCodeUsed:        "Mã xác minh này đã được sử dụng, vui lòng lấy mã mới",
		fault.MsgSMSTypeInvalid:     "Loại mã xác minh không xác định",
		fault.MsgSMSTooOften:        "Gửi mã xác minh quá thường xuyên, vui lòng thử lại sau",
		fault.MsgAccountEmpty:       "Tài khoản không được để trống",
		fault.MsgAccountInvalid:     "Tài khoản phải có ít nhất 6 chữ cái hoặc chữ số",
		fault.MsgAccountInUse:       "Tài khoản đã được sử dụng",
		fault.MsgPhoneInUse:         "Số điện thoại đã được đăng ký",
		fault.MsgPasswordEmpty:      "Mật khẩu không được để trống",
		fault.MsgPasswordTooShort:   "Mật khẩu quá ngắn, ít nhất 4 ký tự",
		fault.MsgPasswordInvalid:    "Mật khẩu chỉ được chứa chữ cái và chữ số",
		fault.MsgTenantEmpty:        "ID máy chủ không được để trống",
		fault.MsgTenantInvalid:      "Mã người thuê không hợp lệ",
		fault.MsgWrongPassword:      "Sai mật khẩu, vui lòng nhập đúng mật khẩu",
		fault.MsgBanned:             "Bạn đã bị quản trị viên khóa tài khoản",
		fault.MsgNotFriend:          "Các bạn chưa là bạn bè, hãy kết bạn trước",
		fault.MsgFriendMissing:      "Bạn bè không có trong danh sách hoặc đã bị xóa",
		fault.MsgAlreadyFriends:     "Các bạn đã là bạn bè",
		fault.MsgSelfFriend:         "Bạn không thể kết bạn với chính mình",
		fault.MsgAlreadyProcessed:   "Các mục đã chọn đã được xử lý",
		fault.MsgApplyNotFound:      "Không tìm thấy lời mời kết bạn",
		fault.MsgMemberNotFound:     "Không tìm thấy người dùng",
		fault.MsgMessageNotFound:    "Không tìm thấy tin nhắn",
		fault.MsgContentEmpty:       "Nội dung cuộc trò chuyện trống",
		fault.MsgChatTypeInvalid:    "chatType phải là Friend hoặc Group",
		fault.MsgMsgTypeUnsupported: "Loại tin nhắn không được hỗ trợ",
		fault.MsgUUIDRequired:       "Thiếu uuid",
		fault.MsgUUIDInvalid:        "uuid phải gồm 1 đến 64 chữ cái, chữ số, '-' hoặc '_'",
		fault.MsgGroupNotSupported:  "Trò chuyện nhóm chưa khả dụng",
		fault.MsgStatusInvalid:      "Trạng thái phải là accepted hoặc rejected",
		fault.MsgTooManyRequests:    "Quá nhiều yêu cầu, vui lòng thử lại sau",
		fault.MsgPinLimit:           "Số cuộc trò chuyện được ghim đã vượt quá giới hạn, hãy bỏ ghim cuộc trò chuyện khác rồi thử lại",
		fault.MsgConversationTarget: "Hãy cung cấp friendMemberId hoặc groupId phù hợp với chatType",
		fault.MsgOperationInvalid:   "operationType phải là Add, Del, Report, AddTop hoặc DelTop",
		fault.MsgConcurrentChange:   "Nội dung này đang được thay đổi đồng thời ở nơi khác, vui lòng thử lại",
		fault.MsgBusy:               "Máy chủ đang bận, vui lòng thử lại sau giây lát",
	},
}
