package envelope

import "github.com/eventchat/eventchat/projections"

// The texts of audit replays, imports of exports and verifications, and
// of rebuilds and verifications asked of a node that does not fold the log.
var replayTexts = map[string]map[string]string{
	"zh_CN": {
		projections.MsgReplayPositionAndTime: "请给出位置或时间，不能同时给出",
		projections.MsgReplayBeyondHead:      "位置 %d 超出了日志末尾 %d",
		projections.MsgReplayOtherTenant:     "流 %s 不属于租户 %s",
		projections.MsgReplayOrder:           "事件 %d 未按位置顺序排列",
		projections.MsgReplayBeyondExport:    "事件 %d 超出了导出的末尾 %d",
		projections.MsgReplayTenants:         "回放 %s 属于租户 %s，回放 %s 属于 %s",
		projections.MsgReplayNotFound:        "回放不存在",
		projections.MsgReplayNotDone:         "回放尚未完成",
		projections.MsgReplaysFull:           "租户 %s 已保留 %d 个回放，已达上限：请删除一个后再开始新的回放",
		projections.MsgNoSnapshot:            "此读存储在服务时无法校验",
		projections.MsgNotLeader:             "此节点不负责投影日志：请向持有投影租约的 %s 发起",
		projections.MsgNoLeader:              "尚无节点持有投影租约：请几秒后再试",
	},
	"vi_VN": {
		projections.MsgReplayPositionAndTime: "Hãy đưa vị trí hoặc thời gian, không đưa cả hai",
		projections.MsgReplayBeyondHead:      "Vị trí %d vượt quá cuối nhật ký %d",
		projections.MsgReplayOtherTenant:     "Luồng %s không thuộc tenant %s",
		projections.MsgReplayOrder:           "Sự kiện %d không theo thứ tự vị trí",
		projections.MsgReplayBeyondExport:    "Sự kiện %d vượt quá cuối của tệp xuất %d",
		projections.MsgReplayTenants:         "Bản phát lại %s thuộc tenant %s, bản %s thuộc %s",
		projections.MsgReplayNotFound:        "Không có bản phát lại này",
		projections.MsgReplayNotDone:         "Bản phát lại chưa xong",
		projections.MsgReplaysFull:           "Tenant %s đang giữ %d bản phát lại, mức tối đa: hãy xóa một bản để bắt đầu bản khác",
		projections.MsgNoSnapshot:            "Kho đọc này không thể kiểm tra khi đang phục vụ",
		projections.MsgNotLeader:             "Nút này không xử lý nhật ký: hãy yêu cầu %s, nút đang giữ hợp đồng thuê phép chiếu",
		projections.MsgNoLeader:              "Chưa có nút nào giữ hợp đồng thuê phép chiếu: hãy thử lại sau vài giây",
	},
}
