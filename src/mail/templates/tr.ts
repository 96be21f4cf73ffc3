import type { MailMessages } from './en.js';

export const tr: MailMessages = {
  'receipt.subject': '{{merchant}} makbuzu: {{amount}} {{currency}}',
  'receipt.heading': 'Ödemeniz için teşekkürler',
  'receipt.intro': '{{merchant}}, {{amount}} {{currency}} tutarındaki ödemenizi aldı.',
  'refund.subject': '{{merchant}} iadeniz: {{amount}} {{currency}}',
  'refund.heading': 'Bir iadeniz var',
  'refund.intro': '{{merchant}}, ödemenizin {{amount}} {{currency}} tutarındaki kısmını iade ediyor.',
  'refund.action': 'Nereye alacağınızı seçin',
  'refund.private':
    'Bu bağlantı yalnızca sizin içindir: ona sahip olan, iadenin nereye gideceğini seçebilir. Yalnızca bir kez çalışır.',
  'paid.subject': 'Fatura ödendi: {{amount}} {{currency}} ({{invoice}})',
  'paid.heading': 'Bir fatura ödendi',
  'paid.intro': '{{merchant}} faturası {{invoice}} ödendi: {{amount}} {{currency}}.',
  'afterClose.subject': 'Kapanış sonrası ödeme: {{amount}} {{currency}} ({{invoice}})',
  'afterClose.heading': 'Fatura kapandıktan sonra bir ödeme geldi',
  'afterClose.intro':
    '{{amount}} {{currency}} tutarında bir ödeme, {{merchant}} faturası {{invoice}} kapandıktan sonra geldi. Alacak kaydedilmedi; panelden iade edebilirsiniz.',
  'field.amount': 'Tutar',
  'field.network': 'Ağ',
  'field.transaction': 'İşlem',
  'field.invoice': 'Fatura',
  'link.transaction': 'İşlemi görüntüle',
  'footer.test': 'Test modu: gerçek para hareket etmedi.',
  'footer.sentBy': '{{merchant}} adına Paydesk tarafından gönderildi.',
};
