import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { FORM, formBody } from '../../test/dashboard.js';
import { humanMessage } from './errors.js';

describe('the dashboard shows people words, never a validator text', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const signIn = (form: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/dashboard/sign-in', payload: formBody(form), headers: FORM });

  test('a field the form does not have: reload and try again', async () => {
    const res = await signIn({ email: 'a@shop.example', password: 'x', admin: 'true' });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('The form could not be read. Reload the page and try again.');
    expect(res.body).not.toMatch(/not a known field|must NOT|body\//);
  });

  test('a value too long: the field by its name, with the limit', async () => {
    const res = await signIn({ email: `${'a'.repeat(1001)}@shop.example`, password: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Email must be at most 1000 characters long');
  });
});

describe('humanMessage', () => {
  const error = (field: string, rule: string, message: string) =>
    humanMessage({ in: 'body', field, rule, message });

  test.each([
    ['ttl_minutes', 'minimum', 'ttl_minutes must be at least 1', 'Invoice lifetime must be at least 1'],
    [
      'name',
      'control_characters',
      'name must not contain control characters',
      'Name must not contain control characters',
    ],
    ['_csrf', 'required', '_csrf is required', 'This form has expired. Reload the page and try again.'],
    ['body', 'too_large', 'The body is larger than 64 KiB', 'The form is larger than the dashboard accepts.'],
    [
      'body',
      'invalid_json',
      'The body is not valid JSON',
      'The form could not be read. Reload the page and try again.',
    ],
    [
      '__proto__',
      'control_characters',
      '__proto__ must not contain a NUL character',
      'Proto must not contain a NUL character',
    ],
    ['logo', 'invalid', 'The logo is larger than 512 KiB', 'The logo is larger than 512 KiB'],
    // A service's own sentence is already written for people.
    [
      'name',
      'invalid',
      'The project name must be 1 to 100 characters long',
      'The project name must be 1 to 100 characters long',
    ],
  ])('%s %s → %s', (field, rule, message, expected) => {
    expect(error(field, rule, message)).toBe(expected);
  });
});
