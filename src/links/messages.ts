import type { Language } from '../checkout/i18n/i18n.js';

// The link page's own words, in the payment page's six languages (its layout and footer come from
// src/checkout/i18n). Kept here, beside the one page that uses them.

const en = {
  pay: 'Pay',
  price: 'Price',
  amount: 'Amount ({{currency}})',
  between: 'From {{min}} to {{max}}',
  atLeast: 'At least {{min}}',
  atMost: 'At most {{max}}',
  email: 'Your e-mail (for the receipt)',
  next: 'You choose how to pay on the next page.',
  'refused.inactive': 'This payment link is not active.',
  'refused.expired': 'This payment link has expired.',
  'refused.usedUp': 'This payment link has been used as many times as it allows.',
  'refused.unpayable': 'This payment link cannot be paid at the moment.',
  'refused.amount': 'Enter an amount within the range shown, with at most two decimals.',
  'refused.email': 'Enter a valid e-mail address.',
  'refused.token': 'This page was out of date. Check the details and press Pay again.',
};
export type LinkMessageKey = keyof typeof en;

const es: typeof en = {
  pay: 'Pagar',
  price: 'Precio',
  amount: 'Importe ({{currency}})',
  between: 'De {{min}} a {{max}}',
  atLeast: 'Al menos {{min}}',
  atMost: 'Como máximo {{max}}',
  email: 'Tu correo electrónico (para el recibo)',
  next: 'En la página siguiente eliges cómo pagar.',
  'refused.inactive': 'Este enlace de pago no está activo.',
  'refused.expired': 'Este enlace de pago ha caducado.',
  'refused.usedUp': 'Este enlace de pago ya se usó todas las veces permitidas.',
  'refused.unpayable': 'Este enlace de pago no se puede pagar en este momento.',
  'refused.amount': 'Introduce un importe dentro del rango indicado, con dos decimales como máximo.',
  'refused.email': 'Introduce una dirección de correo válida.',
  'refused.token': 'Esta página estaba desactualizada. Revisa los datos y pulsa Pagar de nuevo.',
};
const pt: typeof en = {
  pay: 'Pagar',
  price: 'Preço',
  amount: 'Valor ({{currency}})',
  between: 'De {{min}} a {{max}}',
  atLeast: 'No mínimo {{min}}',
  atMost: 'No máximo {{max}}',
  email: 'Seu e-mail (para o recibo)',
  next: 'Na próxima página você escolhe como pagar.',
  'refused.inactive': 'Este link de pagamento não está ativo.',
  'refused.expired': 'Este link de pagamento expirou.',
  'refused.usedUp': 'Este link de pagamento já foi usado o número máximo de vezes.',
  'refused.unpayable': 'Este link de pagamento não pode ser pago no momento.',
  'refused.amount': 'Informe um valor dentro do intervalo indicado, com no máximo duas casas decimais.',
  'refused.email': 'Informe um endereço de e-mail válido.',
  'refused.token': 'Esta página estava desatualizada. Confira os dados e toque em Pagar novamente.',
};
const ru: typeof en = {
  pay: 'Оплатить',
  price: 'Цена',
  amount: 'Сумма ({{currency}})',
  between: 'От {{min}} до {{max}}',
  atLeast: 'Не меньше {{min}}',
  atMost: 'Не больше {{max}}',
  email: 'Ваш e-mail (для чека)',
  next: 'Способ оплаты вы выберете на следующей странице.',
  'refused.inactive': 'Эта платёжная ссылка не активна.',
  'refused.expired': 'Срок действия этой платёжной ссылки истёк.',
  'refused.usedUp': 'Эта платёжная ссылка использована максимальное число раз.',
  'refused.unpayable': 'Сейчас оплатить по этой ссылке нельзя.',
  'refused.amount': 'Введите сумму в указанных пределах, не более двух знаков после запятой.',
  'refused.email': 'Введите правильный адрес e-mail.',
  'refused.token': 'Страница устарела. Проверьте данные и нажмите «Оплатить» ещё раз.',
};
const tr: typeof en = {
  pay: 'Öde',
  price: 'Fiyat',
  amount: 'Tutar ({{currency}})',
  between: '{{min}} ile {{max}} arası',
  atLeast: 'En az {{min}}',
  atMost: 'En fazla {{max}}',
  email: 'E-posta adresiniz (makbuz için)',
  next: 'Nasıl ödeyeceğinizi bir sonraki sayfada seçersiniz.',
  'refused.inactive': 'Bu ödeme bağlantısı etkin değil.',
  'refused.expired': 'Bu ödeme bağlantısının süresi doldu.',
  'refused.usedUp': 'Bu ödeme bağlantısı izin verilen sayıda kullanıldı.',
  'refused.unpayable': 'Bu ödeme bağlantısı şu anda ödenemiyor.',
  'refused.amount': 'Gösterilen aralıkta, en fazla iki ondalıklı bir tutar girin.',
  'refused.email': 'Geçerli bir e-posta adresi girin.',
  'refused.token': 'Bu sayfa güncel değildi. Bilgileri kontrol edip yeniden Öde’ye basın.',
};
const zh: typeof en = {
  pay: '支付',
  price: '价格',
  amount: '金额（{{currency}}）',
  between: '{{min}} 至 {{max}}',
  atLeast: '至少 {{min}}',
  atMost: '最多 {{max}}',
  email: '您的电子邮箱（用于收据）',
  next: '您将在下一页选择支付方式。',
  'refused.inactive': '此支付链接未启用。',
  'refused.expired': '此支付链接已过期。',
  'refused.usedUp': '此支付链接的使用次数已达上限。',
  'refused.unpayable': '此支付链接目前无法支付。',
  'refused.amount': '请输入所示范围内的金额，最多两位小数。',
  'refused.email': '请输入有效的电子邮箱地址。',
  'refused.token': '此页面已过期。请核对信息后再次点击支付。',
};

const CATALOGUES: Record<Language, typeof en> = { en, es, pt, ru, tr, zh };

/** The link page's message in `lang`, its {{placeholders}} filled in (the page escapes the result). */
export function linkText(lang: Language, key: LinkMessageKey, vars: Record<string, string> = {}): string {
  return CATALOGUES[lang][key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}
