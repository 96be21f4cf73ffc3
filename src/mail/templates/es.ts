import type { MailMessages } from './en.js';

export const es: MailMessages = {
  'receipt.subject': 'Recibo de {{merchant}}: {{amount}} {{currency}}',
  'receipt.heading': 'Gracias por tu pago',
  'receipt.intro': '{{merchant}} recibió tu pago de {{amount}} {{currency}}.',
  'refund.subject': 'Tu reembolso de {{merchant}}: {{amount}} {{currency}}',
  'refund.heading': 'Tienes un reembolso',
  'refund.intro': '{{merchant}} te reembolsa {{amount}} {{currency}} de tu pago.',
  'refund.action': 'Elige dónde recibirlo',
  'refund.private':
    'Este enlace es solo para ti: quien lo tenga puede elegir adónde va el reembolso. Funciona una sola vez.',
  'paid.subject': 'Factura pagada: {{amount}} {{currency}} ({{invoice}})',
  'paid.heading': 'Se pagó una factura',
  'paid.intro': 'La factura {{invoice}} de {{merchant}} se pagó: {{amount}} {{currency}}.',
  'afterClose.subject': 'Pago tras el cierre: {{amount}} {{currency}} ({{invoice}})',
  'afterClose.heading': 'Llegó un pago después de cerrarse la factura',
  'afterClose.intro':
    'Un pago de {{amount}} {{currency}} llegó a la factura {{invoice}} de {{merchant}} después de cerrarse. No se abona; puedes reembolsarlo desde el panel.',
  'field.amount': 'Importe',
  'field.network': 'Red',
  'field.transaction': 'Transacción',
  'field.invoice': 'Factura',
  'link.transaction': 'Ver la transacción',
  'footer.test': 'Modo de prueba: no se movió dinero real.',
  'footer.sentBy': 'Enviado por Paydesk en nombre de {{merchant}}.',
};
