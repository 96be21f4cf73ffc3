// The architecture, checked in CI (`npm run architecture`): no import cycles, between modules or
// between feature folders (src/invoices → src/merchants → src/invoices would be one); the shared web
// plumbing (src/web) imports no feature, and the two surfaces (src/checkout, src/dashboard) share
// code only through it. Tests are left out: they may reach across the tree. Parsed with swc, since TypeScript 7 has no JavaScript API.
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
    {
      name: 'web-imports-no-feature',
      severity: 'error',
      comment:
        'src/web is the shared plumbing of the pages for people (templating, headers, assets, ' +
        'layout, design tokens, QR): it may lean on src/http, never on a feature or a surface.',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/(web|http)/' },
    },
    {
      name: 'surfaces-stay-apart',
      severity: 'error',
      comment:
        'The payment page and the dashboard share code through src/web only, never by importing ' +
        'each other.',
      from: { path: '^src/(checkout|dashboard)/' },
      to: { path: '^src/(checkout|dashboard)/', pathNot: '^src/$1/' },
    },
    {
      name: 'dashboard-is-a-surface',
      severity: 'error',
      comment:
        "The dashboard is routes, views and form glue over the features' services (issue 21): it " +
        'imports no repository, no database module and no query builder (row types from a ' +
        "feature's *.table.ts are fine: they are what its services return). A read it needs belongs " +
        'to the feature whose tables it reads.',
      from: { path: '^src/dashboard/' },
      to: { path: ['repository\\.ts$', '^src/db/', 'kysely'] },
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
