import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { CONSOLE_ROUTES } from './routes';

/** The console's source files with JSX, parsed. */
const sources = () =>
  readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => ts.createSourceFile(f, readFileSync(join(__dirname, f), 'utf8'), ts.ScriptTarget.Latest, true));

/** Each node of a file, depth first. */
function* nodes(node: ts.Node): Generator<ts.Node> {
  yield node;
  for (const child of node.getChildren()) yield* nodes(child);
}

/** Every <Route> of the console: its file, its path as written, and the call it is mapped in, if any. */
function routes() {
  return sources().flatMap((file) =>
    [...nodes(file)]
      .filter((n) => (ts.isJsxSelfClosingElement(n) || ts.isJsxOpeningElement(n)) && n.tagName.getText() === 'Route')
      .map((n) => {
        const path = (n as ts.JsxSelfClosingElement).attributes.properties.find(
          (a): a is ts.JsxAttribute => ts.isJsxAttribute(a) && a.name.getText() === 'path',
        )?.initializer;
        let call: ts.Node | undefined = n.parent;
        while (call && !ts.isCallExpression(call)) call = call.parent;
        return {
          file: file.fileName,
          path: path && ts.isStringLiteral(path) ? path.text : (path?.getText() ?? null),
          mappedIn: call && ts.isCallExpression(call) ? call.expression.getText() : null,
        };
      }),
  );
}

/**
 * The api serves the console's page at CONSOLE_ROUTES only (./routes.ts, shipped in the build as
 * routes.json) and answers any other path 404: a page routed in the console but missing from the
 * list would be a 404 at its URL. So the console routes exactly the list.
 */
describe("the console's routes", () => {
  it('main.tsx routes each of CONSOLE_ROUTES to its page, anything else to the not-found view, and nothing more', () => {
    // A <Route path="/new-page"> written anywhere shows here: add the path to CONSOLE_ROUTES and its page to PAGES.
    expect(routes()).toEqual([
      { file: 'main.tsx', path: '{path}', mappedIn: 'CONSOLE_ROUTES.map' },
      { file: 'main.tsx', path: '*', mappedIn: null },
    ]);
    const main = sources().find((f) => f.fileName === 'main.tsx')!;
    const pages = [...nodes(main)].find(
      (n): n is ts.VariableDeclaration => ts.isVariableDeclaration(n) && n.name.getText() === 'PAGES',
    )!.initializer as ts.ObjectLiteralExpression;
    expect(pages.properties.map((p) => (p.name as ts.StringLiteral).text)).toEqual([...CONSOLE_ROUTES]);
  });

  it('no other way of routing (a route object or a nested router) is used', () => {
    const other = /\b(useRoutes|createBrowserRouter|createRoutesFromElements|RouterProvider|matchRoutes)\b/;
    expect(
      sources()
        .filter((f) => other.test(f.text))
        .map((f) => f.fileName),
    ).toEqual([]);
    expect(
      sources()
        .filter((f) => /<Routes\b/.test(f.text))
        .map((f) => f.fileName),
    ).toEqual(['main.tsx']);
  });

  it('every route is a path the api understands', () => {
    for (const r of CONSOLE_ROUTES)
      expect(r).toMatch(/^\/([A-Za-z0-9._~-]+|:[A-Za-z_]\w*)?(\/([A-Za-z0-9._~-]+|:[A-Za-z_]\w*))*$/);
  });
});
