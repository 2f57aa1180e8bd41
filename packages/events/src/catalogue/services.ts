import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as contractModule from '../contracts';
import type { AnyContract } from '../envelope';

/**
 * Who produces and who consumes each contract, read from the services' sources (no declaration to keep in step):
 *
 * - consumers: `src/events/subscriptions.ts`, every `*.subscribe(C, …)` / `*.subscribeBatch([C, …], …)` (the
 *   service's durable queue) and `*.on(C, …)` (notify's live feed: a per-replica queue, at most once). A contract
 *   named there in any other way is an error, so a new way of subscribing cannot be missed silently; a unit test
 *   also runs each subscribe function against a recording bus and compares.
 * - producers: any other source file (tests excepted) calling `createEvent(C, …)` or an outbox writer's
 *   `*.emit(tx, C, …)` (billing), C possibly chosen by a conditional. A contract named there in any other way is
 *   an error too (a wrapper could publish it unseen).
 *
 * C is an identifier imported from `@tyres/events` whose value is a registered contract (aliases resolved, so
 * `BookingCreated` counts as `booking.created.v1`).
 */
export type ConsumerRoute = 'queue' | 'live-feed';

export interface ServiceEvents {
  service: string;
  produces: string[];
  consumes: { type: string; route: ConsumerRoute }[];
}

const SUBSCRIBE_METHODS: Record<string, ConsumerRoute> = {
  subscribe: 'queue',
  subscribeBatch: 'queue',
  on: 'live-feed',
};

/** Exported name -> routing key, for every export of the contracts module that is a registered contract. */
function contractsByExport(): Map<string, string> {
  const registered = new Set<unknown>(contractModule.contractList);
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(contractModule)) {
    if (registered.has(value)) out.set(name, (value as AnyContract).type);
  }
  return out;
}

/** Local identifier -> routing key, for the value imports of the @tyres/events package that are contracts. */
function importedContracts(source: ts.SourceFile, byExport: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    if (!ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== '@tyres/events')
      continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    const bindings = clause.namedBindings;
    if (!bindings) continue;
    if (ts.isNamespaceImport(bindings)) {
      throw new Error(
        `${source.fileName}: import named contracts from @tyres/events, not a namespace (the catalogue reads them)`,
      );
    }
    for (const element of bindings.elements) {
      if (element.isTypeOnly) continue;
      const exported = (element.propertyName ?? element.name).text;
      const type = byExport.get(exported);
      if (type) out.set(element.name.text, type);
    }
  }
  return out;
}

/** Contract identifiers in an argument: `C`, or each branch of `cond ? A : B`. */
function contractsIn(node: ts.Node, known: Map<string, string>): string[] {
  if (ts.isIdentifier(node)) return known.has(node.text) ? [known.get(node.text)!] : [];
  if (ts.isConditionalExpression(node)) {
    return [...contractsIn(node.whenTrue, known), ...contractsIn(node.whenFalse, known)];
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
    return contractsIn(node.expression, known);
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => contractsIn(e, known));
  return [];
}

const calleeName = (call: ts.CallExpression): string | undefined => {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
};

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
    ts.ScriptKind.TS,
  );
}

/** The consumers one subscriptions.ts declares. Throws when a contract is named outside a subscribe call. */
export function readSubscriptions(file: string, byExport = contractsByExport()): ServiceEvents['consumes'] {
  const source = parse(file);
  const known = importedContracts(source, byExport);
  const consumes: ServiceEvents['consumes'] = [];
  const accounted = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const route = SUBSCRIBE_METHODS[node.expression.name.text];
      const first = node.arguments[0];
      if (route && first) {
        for (const type of contractsIn(first, known)) consumes.push({ type, route });
        markIdentifiers(first, accounted);
      }
    }
    if (ts.isIdentifier(node) && known.has(node.text) && !accounted.has(node) && !isImportName(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      throw new Error(
        `${file}:${line + 1}: ${node.text} is named outside bus.subscribe / subscribeBatch / liveFeed.on; ` +
          'the event catalogue cannot tell whether it is consumed (packages/events/src/catalogue/services.ts)',
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return dedupe(consumes, (c) => `${c.route} ${c.type}`);
}

/**
 * The contracts one source file produces (createEvent / emit). Throws when a contract is named anywhere else (a
 * type query aside): a helper that wraps createEvent, or an envelope built by hand, would otherwise publish an event
 * the catalogue does not list.
 */
export function readProductions(file: string, byExport = contractsByExport()): string[] {
  const source = parse(file);
  const known = importedContracts(source, byExport);
  if (!known.size) return [];
  const produces: string[] = [];
  const accounted = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const argument =
        name === 'createEvent'
          ? node.arguments[0]
          : name === 'emit' && ts.isPropertyAccessExpression(node.expression)
            ? node.arguments[1]
            : undefined;
      if (argument) {
        produces.push(...contractsIn(argument, known));
        markIdentifiers(argument, accounted);
      }
    }
    if (
      ts.isIdentifier(node) &&
      known.has(node.text) &&
      !accounted.has(node) &&
      !isImportName(node) &&
      !ts.isTypeQueryNode(node.parent)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      throw new Error(
        `${file}:${line + 1}: ${node.text} is named outside createEvent(C, …) / emit(tx, C, …); the event ` +
          'catalogue cannot tell whether this service produces it (packages/events/src/catalogue/services.ts)',
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(produces)];
}

function markIdentifiers(node: ts.Node, into: Set<ts.Node>): void {
  if (ts.isIdentifier(node)) into.add(node);
  ts.forEachChild(node, (child) => markIdentifiers(child, into));
}

const isImportName = (node: ts.Identifier) => ts.isImportSpecifier(node.parent);

function dedupe<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'node_modules') out.push(...sourceFiles(full));
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.d.ts')
    ) {
      out.push(full);
    }
  }
  return out.sort();
}

/** Every service under `<root>/services` with a `src/events/subscriptions.ts`, sorted by name. */
export function readServices(root: string): ServiceEvents[] {
  const byExport = contractsByExport();
  const servicesDir = path.join(root, 'services');
  return fs
    .readdirSync(servicesDir)
    .sort()
    .filter((service) => fs.existsSync(path.join(servicesDir, service, 'src/events/subscriptions.ts')))
    .map((service) => {
      const src = path.join(servicesDir, service, 'src');
      const subscriptions = path.join(src, 'events/subscriptions.ts');
      const produces = new Set(
        sourceFiles(src)
          .filter((file) => file !== subscriptions)
          .flatMap((file) => readProductions(file, byExport)),
      );
      const consumes = readSubscriptions(subscriptions, byExport);
      return {
        service,
        produces: [...produces].sort(),
        consumes: consumes.sort((a, b) => a.type.localeCompare(b.type) || b.route.localeCompare(a.route)),
      };
    });
}
