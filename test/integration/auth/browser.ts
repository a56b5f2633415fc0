/**
 * A minimal browser for driving sign-in and consent with plain HTTP: a cookie jar, manual
 * redirects, and form posts that carry the Origin header a real browser would send.
 */
interface StoredCookie {
  value: string;
  path: string;
}

export class HttpBrowser {
  readonly #jar = new Map<string, StoredCookie>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.#cookieHeader(target.pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  async post(url: string, form: Record<string, string>, origin = new URL(url).origin): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Follows redirects from `url` until a page (status 2xx/4xx) or a location accepted by `stop`. */
  async follow(
    url: string,
    stop: (location: string) => boolean = () => false,
  ): Promise<{ url: string; response: Response }> {
    let current = url;
    for (let hops = 0; hops < 20; hops++) {
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      current = new URL(location, current).href;
      if (stop(current)) return { url: current, response };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  cookie(name: string): string | undefined {
    return this.#jar.get(name)?.value;
  }

  #cookieHeader(path: string): string {
    return [...this.#jar.entries()]
      .filter(([, cookie]) => path.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    let path = '/';
    let expired = value === '';
    for (const attribute of attributes) {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = attributeValue;
      if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) < Date.now()) expired = true;
    }
    if (expired) this.#jar.delete(name);
    else this.#jar.set(name, { value, path });
  }
}

export function formField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`no field ${name} in page:\n${html}`);
  return match[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

export function formAction(html: string): string {
  const match = /<form\b[^>]*\bmethod="post"[^>]*\baction="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no form in page:\n${html}`);
  return match[1];
}

/**
 * From an authorization URL to the client's redirect: signs in on the provider's password page
 * when asked and answers the consent screen. Returns the final redirect URL.
 */
export async function authorizeInBrowser(
  browser: HttpBrowser,
  authorizationUrl: string,
  options: {
    email: string;
    password: string;
    redirectPrefix: string;
    decision?: 'approve' | 'deny';
    readOnly?: boolean;
  },
): Promise<URL> {
  const isRedirect = (location: string): boolean => location.startsWith(options.redirectPrefix);
  let step = await browser.follow(authorizationUrl, isRedirect);
  for (let pages = 0; pages < 5; pages++) {
    if (isRedirect(step.url)) return new URL(step.url);
    const html = await step.response.text();
    if (step.response.status !== 200) throw new Error(`page ${step.url} answered ${step.response.status}:\n${html}`);
    const action = new URL(formAction(html), step.url).href;
    const csrf = formField(html, 'csrf');
    const posted = html.includes('name="password"')
      ? await browser.post(action, { csrf, email: options.email, password: options.password })
      : await browser.post(action, {
          csrf,
          request: formField(html, 'request'),
          decision: options.decision ?? 'approve',
          ...(options.readOnly ? { readonly: 'on' } : {}),
        });
    const location = posted.headers.get('location');
    if (!location) throw new Error(`form ${action} answered ${posted.status}:\n${await posted.text()}`);
    const next = new URL(location, action).href;
    step = isRedirect(next) ? { url: next, response: posted } : await browser.follow(next, isRedirect);
  }
  throw new Error('sign-in and consent did not finish');
}
