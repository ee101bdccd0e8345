/** `npm run bench -- <name>`: runs one benchmark and prints its figures. */
const benches: Record<string, () => Promise<unknown>> = {
  envelope: () => import('./envelope.js').then((m) => m.run()),
  userpage: () => import('./userpage.js').then((m) => m.run()),
  login: () => import('./auth.js').then((m) => m.login()),
  userinfo: () => import('./auth.js').then((m) => m.userinfo()),
  refresh: () => import('./auth.js').then((m) => m.refresh()),
  signed: () => import('./signed.js').then((m) => m.run()),
  enumeration: () => import('./enumeration.js').then((m) => m.run()),
};

const name = process.argv[2];
const bench = name ? benches[name] : undefined;
if (!bench) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}>\n`);
  process.exit(2);
}
await bench();
