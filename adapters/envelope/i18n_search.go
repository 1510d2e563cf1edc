package envelope

import "github.com/eventchat/eventchat/domain/fault"

// The texts of message search.
var searchTexts = map[string]map[string]string{
	"zh_CN": {
		fault.MsgSearchEmpty:   "请输入要搜索的内容",
		fault.MsgSearchTooLong: "搜索内容过长，最多100个字符",
		fault.MsgSearchTarget:  "to 和 chatType 需同时给出",
	},
	"vi_VN": {
		fault.MsgSearchEmpty:   "Vui lòng nhập nội dung cần tìm",
		fault.MsgSearchTooLong: "Nội dung tìm kiếm quá dài, tối đa 100 ký tự",
		fault.MsgSearchTarget:  "Cần cung cấp cả to và chatType",
	},
}
