package envelope

import "github.com/eventchat/eventchat/domain/chat"

// The texts of uploads and media messages, merged into texts.
var mediaTexts = map[string]map[string]string{
	"zh_CN": {
		chat.MsgMediaInvalid:    "该消息的文件无效",
		chat.MsgMediaPath:       "该消息的文件不是在此上传的",
		chat.MsgMediaFileName:   "文件名无效",
		chat.MsgMediaNotPicture: "图片消息需要一张图片",
		chat.MsgMediaNotVideo:   "视频消息需要一个视频",
		chat.MsgMediaNotAudio:   "语音消息需要一段录音",
		chat.MsgMediaNotFound:   "找不到该消息的文件，请重新上传",
		chat.MsgPictureTooLarge: "图片必须小于5MB",
		chat.MsgFileTooLarge:    "文件不能超过100MB",
		chat.MsgFileRequired:    "请选择文件",
		chat.MsgImageRequired:   "请选择图片",
		chat.MsgAvatarGIF:       "头像不能使用gif图片",
		chat.MsgAvatarType:      "头像必须是jpg、jpeg或png图片",
		chat.MsgUploadType:      "未知的上传类型，请使用 chat、avatar 或 feedback",
		chat.MsgFileEmpty:       "文件为空",
	},
	"vi_VN": {
		chat.MsgMediaInvalid:    "Tệp của tin nhắn này không hợp lệ",
		chat.MsgMediaPath:       "Tệp của tin nhắn này không được tải lên tại đây",
		chat.MsgMediaFileName:   "Tên tệp không hợp lệ",
		chat.MsgMediaNotPicture: "Tin nhắn hình ảnh cần một hình ảnh",
		chat.MsgMediaNotVideo:   "Tin nhắn video cần một video",
		chat.MsgMediaNotAudio:   "Tin nhắn thoại cần một bản ghi âm",
		chat.MsgMediaNotFound:   "Không tìm thấy tệp của tin nhắn này, hãy tải lên lại",
		chat.MsgPictureTooLarge: "Hình ảnh phải nhỏ hơn 5MB",
		chat.MsgFileTooLarge:    "Tệp không được vượt quá 100MB",
		chat.MsgFileRequired:    "Vui lòng chọn một tệp",
		chat.MsgImageRequired:   "Vui lòng chọn một hình ảnh",
		chat.MsgAvatarGIF:       "Không được dùng ảnh gif làm ảnh đại diện",
		chat.MsgAvatarType:      "Ảnh đại diện phải là ảnh jpg, jpeg hoặc png",
		chat.MsgUploadType:      "Loại tải lên không xác định, hãy dùng chat, avatar hoặc feedback",
		chat.MsgFileEmpty:       "Tệp trống",
	},
}
