import type { MailMessages } from './en.js';

export const pt: MailMessages = {
  'receipt.subject': 'Recibo de {{merchant}}: {{amount}} {{currency}}',
  'receipt.heading': 'Obrigado pelo seu pagamento',
  'receipt.intro': '{{merchant}} recebeu o seu pagamento de {{amount}} {{currency}}.',
  'refund.subject': 'O seu reembolso de {{merchant}}: {{amount}} {{currency}}',
  'refund.heading': 'Você tem um reembolso',
  'refund.intro': '{{merchant}} está reembolsando {{amount}} {{currency}} do seu pagamento.',
  'refund.action': 'Escolha onde recebê-lo',
  'refund.private':
    'Este link é só para você: quem o tiver pode escolher para onde vai o reembolso. Funciona uma única vez.',
  'paid.subject': 'Fatura paga: {{amount}} {{currency}} ({{invoice}})',
  'paid.heading': 'Uma fatura foi paga',
  'paid.intro': 'A fatura {{invoice}} de {{merchant}} foi paga: {{amount}} {{currency}}.',
  'afterClose.subject': 'Pagamento após o fechamento: {{amount}} {{currency}} ({{invoice}})',
  'afterClose.heading': 'Chegou um pagamento depois de a fatura fechar',
  'afterClose.intro':
    'Um pagamento de {{amount}} {{currency}} chegou à fatura {{invoice}} de {{merchant}} depois de ela fechar. Não é creditado; você pode reembolsá-lo no painel.',
  'field.amount': 'Valor',
  'field.network': 'Rede',
  'field.transaction': 'Transação',
  'field.invoice': 'Fatura',
  'link.transaction': 'Ver a transação',
  'footer.test': 'Modo de teste: nenhum dinheiro real foi movido.',
  'footer.sentBy': 'Enviado pelo Paydesk em nome de {{merchant}}.',
};
