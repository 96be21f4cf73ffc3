/** The checks a client makes before it holds a key: where it runs, the key's shape, the base URL. */

const SECRET_KEY = /^svc_secret_[A-Za-z0-9]{32,256}$/;

/**
 * The secret key gives full access to a project; in a browser anyone can read it (contract §1: the
 * API is for servers). Like stripe-node with a secret key, the client refuses to start there.
 */
export function assertServerSide(): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (typeof g.window !== 'undefined' && typeof g.document !== 'undefined') {
    throw new Error(
      '@paydesk/node runs only on your server: in a browser anyone could read your secret API key. ' +
        "Call Paydesk from your backend and send the browser only the invoice's payment_url.",
    );
  }
}

/** Refuses anything but a secret key, saying what was passed instead; never echoes the value. */
export function assertSecretKey(key: unknown): asserts key is string {
  const problem = keyProblem(key);
  if (problem) throw new TypeError(`new Paydesk(secretKey): ${problem}`);
}

function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key === '') {
    return `expected your project's secret API key (svc_secret_…) but got ${key === '' ? 'an empty string' : typeof key}. Is the environment variable holding it set?`;
  }
  if (SECRET_KEY.test(key)) return undefined;
  if (SECRET_KEY.test(key.trim())) return 'the key has spaces or a line break around it; trim it.';
  if (/^bearer\s/i.test(key)) return "pass the key alone, without 'Bearer '.";
  if (key.startsWith('whsec_')) {
    return 'that is a webhook signing secret (whsec_…), which goes to paydesk.webhooks.verify(). Pass the secret API key (svc_secret_…).';
  }
  return 'that is not a Paydesk secret API key: it must be svc_secret_ followed by at least 32 letters and digits.';
}

/** Paydesk's public address: http(s), without a trailing slash or `/v1` (the paths carry it). */
export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `new Paydesk(key, { baseUrl }): "${value}" is not a URL; use Paydesk's address, such as https://pay.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(
      `new Paydesk(key, { baseUrl }): the address must be http:// or https://, not ${url.protocol}`,
    );
  }
  return url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}
