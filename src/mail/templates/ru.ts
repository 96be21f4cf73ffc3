import type { MailMessages } from './en.js';

export const ru: MailMessages = {
  'receipt.subject': 'Квитанция от {{merchant}}: {{amount}} {{currency}}',
  'receipt.heading': 'Спасибо за оплату',
  'receipt.intro': '{{merchant}} получил ваш платёж на сумму {{amount}} {{currency}}.',
  'refund.subject': 'Ваш возврат от {{merchant}}: {{amount}} {{currency}}',
  'refund.heading': 'Вам положен возврат',
  'refund.intro': '{{merchant}} возвращает вам {{amount}} {{currency}} из вашего платежа.',
  'refund.action': 'Выберите, куда его получить',
  'refund.private':
    'Эта ссылка только для вас: тот, у кого она есть, может выбрать, куда пойдёт возврат. Она работает один раз.',
  'paid.subject': 'Счёт оплачен: {{amount}} {{currency}} ({{invoice}})',
  'paid.heading': 'Счёт оплачен',
  'paid.intro': 'Счёт {{invoice}} от {{merchant}} оплачен: {{amount}} {{currency}}.',
  'afterClose.subject': 'Платёж после закрытия: {{amount}} {{currency}} ({{invoice}})',
  'afterClose.heading': 'Платёж пришёл после закрытия счёта',
  'afterClose.intro':
    'Платёж на сумму {{amount}} {{currency}} пришёл на счёт {{invoice}} от {{merchant}} после его закрытия. Он не зачтён; его можно вернуть из панели управления.',
  'field.amount': 'Сумма',
  'field.network': 'Сеть',
  'field.transaction': 'Транзакция',
  'field.invoice': 'Счёт',
  'link.transaction': 'Открыть транзакцию',
  'footer.test': 'Тестовый режим: реальные деньги не переводились.',
  'footer.sentBy': 'Отправлено Paydesk от имени {{merchant}}.',
};
