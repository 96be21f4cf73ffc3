// The architecture, checked in CI (`npm run architecture`): no import cycles, between modules or
// between feature folders (src/invoices → src/merchants → src/invoices would be one). Tests are left
// out: they may reach across the tree. Parsed with swc, since TypeScript 7 has no JavaScript API.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Feature folders depend on each other in one direction only.',
      scope: 'folder',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      from: { path: '^src' },
      to: { circular: true },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    exclude: { path: ['\\.test\\.ts$', '^test/'] },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
