import type { MailMessages } from './en.js';

export const zh: MailMessages = {
  'receipt.subject': '{{merchant}} 的收据：{{amount}} {{currency}}',
  'receipt.heading': '感谢您的付款',
  'receipt.intro': '{{merchant}} 已收到您支付的 {{amount}} {{currency}}。',
  'refund.subject': '{{merchant}} 给您的退款：{{amount}} {{currency}}',
  'refund.heading': '您有一笔退款',
  'refund.intro': '{{merchant}} 正在退还您付款中的 {{amount}} {{currency}}。',
  'refund.action': '选择收款地址',
  'refund.private': '此链接仅供您本人使用：持有它的人都可以选择退款的去向。它只能使用一次。',
  'paid.subject': '发票已支付：{{amount}} {{currency}}（{{invoice}}）',
  'paid.heading': '一张发票已支付',
  'paid.intro': '{{merchant}} 的发票 {{invoice}} 已支付：{{amount}} {{currency}}。',
  'afterClose.subject': '关闭后到账的付款：{{amount}} {{currency}}（{{invoice}}）',
  'afterClose.heading': '发票关闭后收到一笔付款',
  'afterClose.intro':
    '一笔 {{amount}} {{currency}} 的付款在 {{merchant}} 的发票 {{invoice}} 关闭后到账。它不计入发票；您可以在控制台中退款。',
  'field.amount': '金额',
  'field.network': '网络',
  'field.transaction': '交易',
  'field.invoice': '发票',
  'link.transaction': '查看交易',
  'footer.test': '测试模式：没有真实资金转移。',
  'footer.sentBy': '由 Paydesk 代表 {{merchant}} 发送。',
};
