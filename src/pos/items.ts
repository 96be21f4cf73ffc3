import type { FieldError } from '../http/errors.js';
import { formatMinor, isTaxPercent, parsePrice } from './sale.js';
import type { TillItem } from './till.table.js';

export const MAX_ITEMS = 50;
const MAX_NAME = 60;

/**
 * A till's price list as the dashboard's form takes it: one item a line, `name; price; tax %`, the
 * tax optional ("Espresso; 2.50; 7.7", "Water; 1.00"). Blank lines are skipped. Every bad line is
 * named, by its number, in the errors; nothing is kept unless every line is right.
 */
export function parseItems(text: string, currency: string): { items: TillItem[]; errors: FieldError[] } {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const items: TillItem[] = [];
  const errors: FieldError[] = [];
  const fail = (rule: string, message: string) => errors.push({ in: 'body', field: 'items', rule, message });
  lines.forEach((line, i) => {
    if (line === '') return;
    const [name = '', price = '', tax = '', ...rest] = line.split(';').map((p) => p.trim());
    const where = `Item line ${i + 1}`;
    if (rest.length > 0 || name === '' || price === '') {
      fail('format', `${where}: write "name; price" or "name; price; tax %", such as "Espresso; 2.50; 7.7"`);
    } else if (Array.from(name).length > MAX_NAME || /[\p{Cc}]/u.test(name)) {
      fail('name', `${where}: the name must be at most ${MAX_NAME} characters, without control characters`);
    } else if (!parsePrice(price, currency)) {
      fail('price', `${where}: the price must be above zero, such as "2.50" (${currency})`);
    } else if (tax !== '' && !isTaxPercent(tax)) {
      fail('tax_percent', `${where}: the tax must be a percentage from 0 to 100, such as "7.7", without "%"`);
    } else {
      const minor = parsePrice(price, currency) as bigint;
      items.push({ name, price: formatMinor(minor, currency), tax_percent: tax === '' ? null : tax });
    }
  });
  if (items.length > MAX_ITEMS) fail('max_items', `A till has at most ${MAX_ITEMS} items`);
  return { items, errors };
}

/** The form's text for a price list (the dashboard shows it back after a refused form). */
export const itemsText = (items: readonly TillItem[]) =>
  items.map((i) => [i.name, i.price, i.tax_percent].filter((p) => p !== null).join('; ')).join('\n');
