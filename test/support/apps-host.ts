import { build } from 'esbuild';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'playwright-core';
import type { Harness, Persona } from './harness.js';

/** What a client that renders MCP Apps declares (the ext-apps negotiation). */
export const APPS_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** A v2 client (2026-07-28) signed in as `persona` that declares it renders MCP Apps. */
export async function connectAppsClient(
  h: Harness,
  persona: Persona,
  extraHeaders: Record<string, string> = {},
): Promise<Client> {
  const headers = { Authorization: `Bearer ${h.users[persona].token}`, 'X-Organization-Id': h.orgId, ...extraHeaders };
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), { requestInit: { headers } });
  const client = new Client({ name: 'apps-test-host', version: '1.0.0' }, {
    capabilities: APPS_CAPABILITIES,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as ConstructorParameters<typeof Client>[1]);
  await client.connect(transport);
  return client;
}

let bridgeBundle: Promise<string> | undefined;

/** ext-apps' own host bridge, bundled for the browser once per test file. */
function hostBridge(): Promise<string> {
  bridgeBundle ??= build({
    stdin: {
      contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    globalName: 'SpecbaseHost',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
  }).then((result) => result.outputFiles[0]!.text);
  return bridgeBundle;
}

/**
 * A host page as a chat client builds one: the app in a sandboxed frame (scripts only, an
 * opaque origin), the bridge connected before the app loads, the app's tool calls sent over
 * the real MCP client, links recorded instead of opened.
 */
const HOST_SCRIPT = `
window.openedLinks = [];
window.mountApp = async (html, toolResult, theme) => {
  const { AppBridge, PostMessageTransport } = SpecbaseHost;
  const old = document.getElementById('app');
  const frame = document.createElement('iframe');
  frame.id = 'app';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'MCP App';
  old.replaceWith(frame);
  document.body.style.background = theme === 'dark' ? '#111318' : '#eef0f3';
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {}, openLinks: {} }, { hostContext: { theme, displayMode: 'inline', platform: 'web' } });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onopenlink = async (params) => { window.openedLinks.push(params.url); return {}; };
  bridge.onsizechange = ({ height }) => { if (height) frame.style.height = height + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  window.bridge = bridge;
  await bridge.sendToolResult(toolResult);
};
`;

export interface AppsHost {
  readonly page: Page;
  /** Loads the app's resource as the host would and shows it the result of `tool`. */
  mount(resourceUri: string, toolResult: CallToolResult, theme?: 'light' | 'dark'): Promise<Frame>;
  /** The tool calls the app made through the host, by name. */
  readonly calls: string[];
  close(): Promise<void>;
}

export async function openAppsHost(
  browser: Browser,
  client: Client,
  viewport: { width: number; height: number } = { width: 900, height: 900 },
): Promise<AppsHost> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const calls: string[] = [];
  await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push(params.name);
    return client.callTool({ name: params.name, arguments: params.arguments ?? {} });
  });
  const bridge = await hostBridge();
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>body{margin:0}iframe{display:block;border:0;width:100%;min-height:200px}</style></head>` +
      `<body><div id="app"></div><script>${bridge.replace(/<\/script/gi, '<\\/script')}</script><script>${HOST_SCRIPT}</script></body></html>`,
  );
  return {
    page,
    calls,
    async mount(resourceUri, toolResult, theme = 'light') {
      const read = await client.readResource({ uri: resourceUri });
      const html = (read.contents[0] as { text: string }).text;
      await page.evaluate(({ html, toolResult, theme }) => (globalThis as any).mountApp(html, toolResult, theme), {
        html,
        toolResult,
        theme,
      });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      if (!frame) throw new Error('the app frame did not load');
      return frame;
    },
    close: () => context.close(),
  };
}
