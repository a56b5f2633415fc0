import { buildCatalog, FULL_CONNECTION } from '../src/tools/index.js';
const c = buildCatalog();
const b = (x: unknown) => Buffer.byteLength(JSON.stringify({ tools: x }), 'utf8');
console.log('default', b(c.listed), 'default+apps', b(c.listedFor(FULL_CONNECTION, true)));
const m = { readOnly: false as const, optIn: new Set(['manage' as const]) };
console.log('+manage', b(c.listedFor(m)), '+manage+apps', b(c.listedFor(m, true)));
