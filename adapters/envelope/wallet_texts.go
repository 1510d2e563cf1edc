package envelope

import "github.com/eventchat/eventchat/domain/wallet"

// The texts of top-up and balances, merged into texts.
var walletTexts = map[string]map[string]string{
	"zh_CN": {
		wallet.MsgDisabled:           "该服务器未开通充值",
		wallet.MsgRequestID:          "requestId 必须是 1 到 64 个字母、数字、'-' 或 '_'",
		wallet.MsgAmount:             "金额必须在 1.00 到 10,000.00 之间",
		wallet.MsgTooManyPending:     "您有 3 笔充值正在等待付款，请等待完成",
		wallet.MsgBalanceFull:        "本次充值会使余额超过 1,000,000.00",
		wallet.MsgOrderNotFound:      "充值订单不存在",
		wallet.MsgOrderExpired:       "充值订单已过期",
		wallet.MsgOrderConfirmed:     "充值订单已确认",
		wallet.MsgOrderRejected:      "充值订单已被拒绝",
		wallet.MsgOrderFailed:        "充值订单已失败",
		wallet.MsgInsufficient:       "余额不足，无法扣款",
		wallet.MsgAdjustAmount:       "调整金额不能为零，且不超过 10,000.00",
		wallet.MsgReason:             "原因必须是 1 到 200 个字符",
		wallet.MsgRejectReason:       "原因最多 200 个字符",
		wallet.MsgProviderFailed:     "支付服务无法完成付款：订单已失败，未扣任何费用",
		wallet.MsgProviderTimeout:    "支付服务未及时响应：订单已失败，未扣任何费用",
		wallet.MsgAdjustmentRepeated: "该调整编号已用于另一笔调整",
	},
	"vi_VN": {
		wallet.MsgDisabled:           "Máy chủ này không hỗ trợ nạp tiền",
		wallet.MsgRequestID:          "requestId phải gồm 1 đến 64 chữ cái, chữ số, '-' hoặc '_'",
		wallet.MsgAmount:             "Số tiền phải từ 1.00 đến 10,000.00",
		wallet.MsgTooManyPending:     "Bạn có 3 lệnh nạp đang chờ thanh toán: hãy đợi chúng hoàn tất",
		wallet.MsgBalanceFull:        "Lệnh nạp này sẽ làm số dư vượt quá 1,000,000.00",
		wallet.MsgOrderNotFound:      "Không tìm thấy lệnh nạp tiền",
		wallet.MsgOrderExpired:       "Lệnh nạp tiền đã hết hạn",
		wallet.MsgOrderConfirmed:     "Lệnh nạp tiền đã được xác nhận",
		wallet.MsgOrderRejected:      "Lệnh nạp tiền đã bị từ chối",
		wallet.MsgOrderFailed:        "Lệnh nạp tiền đã thất bại",
		wallet.MsgInsufficient:       "Số dư không đủ cho khoản trừ này",
		wallet.MsgAdjustAmount:       "Khoản điều chỉnh phải khác 0 và không quá 10,000.00 mỗi chiều",
		wallet.MsgReason:             "Lý do phải từ 1 đến 200 ký tự",
		wallet.MsgRejectReason:       "Lý do tối đa 200 ký tự",
		wallet.MsgProviderFailed:     "Nhà cung cấp thanh toán không thể nhận thanh toán: lệnh đã thất bại và không bị trừ tiền",
		wallet.MsgProviderTimeout:    "Nhà cung cấp thanh toán không phản hồi kịp: lệnh đã thất bại và không bị trừ tiền",
		wallet.MsgAdjustmentRepeated: "Mã điều chỉnh này đã được dùng cho một khoản điều chỉnh khác",
	},
}

func init() {
	for lang, table := range walletTexts {
		for key, text := range table {
			texts[lang][key] = text
		}
	}
}
