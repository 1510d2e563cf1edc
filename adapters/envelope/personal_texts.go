package envelope

import "github.com/eventchat/eventchat/domain/personal"

// The texts of favourites, stickers and mass send, merged into texts.
var personalTexts = map[string]map[string]string{
	"zh_CN": {
		personal.MsgFavouriteUnsupported: "该消息暂不支持收藏",
		personal.MsgFavouriteNotFound:    "收藏不存在",
		personal.MsgFavouriteNotText:     "只能编辑文字收藏",
		personal.MsgSelectRecords:        "请先选择记录",
		personal.MsgTooManyRecords:       "一次最多100条记录",
		personal.MsgStickerNotPicture:    "表情必须是图片",
		personal.MsgStickersFull:         "最多保存300个表情",
		personal.MsgStickerMissing:       "请选择已上传的图片或收藏的图片",
		personal.MsgStickerNotFound:      "表情不存在",
		personal.MsgBatchNoRecipients:    "请选择接收人",
		personal.MsgBatchTooMany:         "群发最多选择100位好友",
		personal.MsgBatchDisabled:        "该账号未开通群发功能",
		personal.MsgBatchSettingInvalid:  "sendBatchMessage 只能是 Enable 或 Disable",
		personal.MsgBatchType:            "群发消息只能是文字、图片、视频、语音或文件",
	},
	"vi_VN": {
		personal.MsgFavouriteUnsupported: "Tin nhắn này chưa thể thêm vào mục yêu thích",
		personal.MsgFavouriteNotFound:    "Không tìm thấy mục yêu thích",
		personal.MsgFavouriteNotText:     "Chỉ có thể sửa mục yêu thích dạng văn bản",
		personal.MsgSelectRecords:        "Vui lòng chọn bản ghi trước",
		personal.MsgTooManyRecords:       "Tối đa 100 bản ghi mỗi lần",
		personal.MsgStickerNotPicture:    "Nhãn dán phải là hình ảnh",
		personal.MsgStickersFull:         "Chỉ lưu được tối đa 300 nhãn dán",
		personal.MsgStickerMissing:       "Hãy chọn một ảnh đã tải lên hoặc một ảnh yêu thích",
		personal.MsgStickerNotFound:      "Không tìm thấy nhãn dán",
		personal.MsgBatchNoRecipients:    "Vui lòng chọn người nhận",
		personal.MsgBatchTooMany:         "Tin nhắn hàng loạt chỉ gửi được tối đa 100 bạn bè",
		personal.MsgBatchDisabled:        "Tài khoản này chưa bật gửi hàng loạt",
		personal.MsgBatchSettingInvalid:  "sendBatchMessage phải là Enable hoặc Disable",
		personal.MsgBatchType:            "Tin nhắn hàng loạt là văn bản, hình ảnh, video, tin nhắn thoại hoặc tệp",
	},
}

func init() {
	for lang, table := range personalTexts {
		for key, text := range table {
			texts[lang][key] = text
		}
	}
}
