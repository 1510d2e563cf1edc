package envelope

import "github.com/eventchat/eventchat/domain/audit"

// The texts of the audit API's refusals.
var auditTexts = map[string]map[string]string{
	"zh_CN": {
		audit.MsgBadTime:         "%s 必须是 RFC 3339 时间或 Unix 毫秒数",
		audit.MsgBadRange:        "from 必须早于 to",
		audit.MsgBadSize:         "size 必须在 1 到 500 之间",
		audit.MsgBadPosition:     "%s 必须是日志位置（整数）",
		audit.MsgUnknownPosition: "%s 不是日志给出的位置：请使用分页或事件给出的位置",
		audit.MsgForeignStream:   "stream 必须是租户 %s 的事件流",
		audit.MsgStreamOrChat:    "stream 和 chat 只能给出一个",
		audit.MsgBadFilter:       "%s 过长",
		audit.MsgBadIDs:          "%s 最多列出 500 个 ID，每个不超过 64 个字符",
		audit.MsgExportChecksum:  "导出文件的校验和不匹配",
		audit.MsgExportMalformed: "这不是审计导出文件：每行一个事件，最后一行是校验和",
	},
	"vi_VN": {
		audit.MsgBadTime:         "%s phải là thời gian RFC 3339 hoặc mili giây Unix",
		audit.MsgBadRange:        "from phải trước to",
		audit.MsgBadSize:         "size phải từ 1 đến 500",
		audit.MsgBadPosition:     "%s phải là một vị trí trong nhật ký",
		audit.MsgUnknownPosition: "%s không phải là vị trí do nhật ký cấp: hãy dùng vị trí mà một trang hoặc một sự kiện đã cho",
		audit.MsgForeignStream:   "stream phải là một luồng của tenant %s",
		audit.MsgStreamOrChat:    "Chỉ đưa stream hoặc chat, không cả hai",
		audit.MsgBadFilter:       "%s quá dài",
		audit.MsgBadIDs:          "%s chỉ được nêu tối đa 500 ID, mỗi ID tối đa 64 ký tự",
		audit.MsgExportChecksum:  "Tổng kiểm tra của tệp xuất không khớp",
		audit.MsgExportMalformed: "Đây không phải tệp xuất kiểm toán: mỗi dòng một sự kiện, dòng cuối là tổng kiểm tra",
	},
}
