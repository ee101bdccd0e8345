/**
 * Writes client-sdk/src/api-types.gen.ts: the router's procedures, with their input and output
 * types written out as plain TypeScript, as a tRPC router type that imports nothing but
 * `@trpc/server`'s public types. The SDK's declarations then carry no server module, so a
 * consumer needs neither the server's libraries (drizzle, zod, node) nor skipLibCheck.
 * `--check` fails when the file is stale (CI).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

const sdk = path.resolve(import.meta.dirname, '..');
const source = path.join(sdk, 'typegen/server-types.ts');
const target = path.join(sdk, 'src/api-types.gen.ts');

const parsed = ts.getParsedCommandLineOfConfigFile(
  path.join(sdk, '..', 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (!parsed) throw new Error('tsconfig.json not readable');
const program = ts.createProgram([source], { ...parsed.options, noEmit: true });
const checker = program.getTypeChecker();
const file = program.getSourceFile(source)!;
const alias = (name: string) => {
  const declaration = file.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
  );
  if (!declaration) throw new Error(`${name} missing in ${source}`);
  return { type: checker.getTypeAtLocation(declaration.name), at: declaration };
};
/**
 * Prints a type as TypeScript text in a canonical form: properties and union members sorted, so
 * the file does not change with the compiler's internal order (typeToString follows it). A type
 * met again inside itself (a tree's children) is printed `unknown`; a type that would need an
 * import fails the generation rather than reaching the SDK.
 */
function printer(at: ts.Node, where: string) {
  const stack: ts.Type[] = [];
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  const wrap = (text: string) => (/[|&]/.test(text) ? `(${text})` : text);
  const print = (type: ts.Type): string => {
    const f = type.flags;
    if (f & ts.TypeFlags.Any) return 'any';
    if (f & ts.TypeFlags.Unknown) return 'unknown';
    if (f & ts.TypeFlags.String) return 'string';
    if (f & ts.TypeFlags.Number) return 'number';
    if (f & ts.TypeFlags.Boolean) return 'boolean';
    if (f & ts.TypeFlags.BigInt) return 'bigint';
    if (f & ts.TypeFlags.Void) return 'void';
    if (f & ts.TypeFlags.Undefined) return 'undefined';
    if (f & ts.TypeFlags.Null) return 'null';
    if (f & ts.TypeFlags.Never) return 'never';
    if (type.isStringLiteral()) return `'${type.value.replace(/[\\']/g, '\\$&')}'`;
    if (type.isNumberLiteral()) return String(type.value);
    if (f & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
    if (stack.includes(type)) return 'unknown';
    stack.push(type);
    try {
      if (type.isUnion()) {
        const members = [...new Set(type.types.map(print))];
        if (members.includes('true') && members.includes('false')) {
          members.splice(members.indexOf('true'), 1, 'boolean');
          members.splice(members.indexOf('false'), 1);
        }
        return members.sort().join(' | ');
      }
      if (type.isIntersection())
        return type.types
          .map((t) => wrap(print(t)))
          .sort()
          .join(' & ');
      if (checker.isArrayType(type)) return `${wrap(print(checker.getTypeArguments(type as ts.TypeReference)[0]!))}[]`;
      if (checker.isTupleType(type))
        return `[${checker
          .getTypeArguments(type as ts.TypeReference)
          .map(print)
          .join(', ')}]`;
      if (f & ts.TypeFlags.Object) {
        // Inputs may take a Date (the wire form is its ISO text): the global type, not its members.
        if (type.getSymbol()?.name === 'Date') return 'Date';
        if (type.getCallSignatures().length || type.getConstructSignatures().length) throw new Error('a function type');
        const parts: string[] = [];
        for (const info of checker.getIndexInfosOfType(type))
          parts.push(`[key: ${print(info.keyType)}]: ${print(info.type)}`);
        const properties = [...type.getProperties()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const p of properties) {
          const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
          parts.push(`${key(p.name)}${optional ? '?' : ''}: ${print(checker.getTypeOfSymbolAtLocation(p, at))}`);
        }
        return parts.length ? `{ ${parts.join('; ')} }` : '{}';
      }
      throw new Error(`a type the printer does not know (${checker.typeToString(type)})`);
    } finally {
      stack.pop();
    }
  };
  return (type: ts.Type): string => {
    try {
      return print(type);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`);
    }
  };
}

const router = alias('Router');
const inputs = alias('Inputs');
const outputs = alias('Outputs');
const member = (t: { type: ts.Type; at: ts.Node }, name: string) => {
  const symbol = t.type.getProperty(name);
  if (!symbol) throw new Error(`no ${name}`);
  return { type: checker.getTypeOfSymbolAtLocation(symbol, t.at), at: t.at };
};

const services: string[] = [];
for (const service of outputs.type
  .getProperties()
  .map((s) => s.name)
  .sort()) {
  const procedures: string[] = [];
  const routerService = member(router, service);
  for (const procedure of member(outputs, service)
    .type.getProperties()
    .map((s) => s.name)
    .sort()) {
    const kind = member(routerService, procedure).type.getSymbol()?.name;
    if (kind !== 'QueryProcedure' && kind !== 'MutationProcedure')
      throw new Error(`${service}.${procedure}: ${kind} is neither a query nor a mutation`);
    const input = printer(inputs.at, `${service}.${procedure} input`)(member(member(inputs, service), procedure).type);
    const output = printer(
      outputs.at,
      `${service}.${procedure} output`,
    )(member(member(outputs, service), procedure).type);
    procedures.push(`    ${procedure}: TRPC${kind}<{ input: ${input}; output: ${output}; meta: object }>;`);
  }
  services.push(`  ${service}: {\n${procedures.join('\n')}\n  };`);
}

const text = `// Generated by \`npm run codegen\` (client-sdk/typegen/generate.ts) from the server's routers. Do not edit.
import type { TRPC_ERROR_CODE_KEY, TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { Envelope } from './envelope.js';

/** Every procedure with its input and output as they travel (ids as strings, times as text). */
export type ApiRecord = {
${services.join('\n')}
};

/** What a failed call carries: tRPC's shape, with the envelope the REST facade would have answered. */
export interface ApiErrorShape {
  message: string;
  code: number;
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number; path?: string; envelope?: Envelope };
}

/** The server's router as its clients see it. */
export type AppRouter = TRPCBuiltRouter<{ ctx: object; meta: object; errorShape: ApiErrorShape; transformer: false }, ApiRecord>;
`;

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== text) {
    process.stderr.write('client-sdk/src/api-types.gen.ts is stale: run npm run codegen\n');
    process.exit(1);
  }
} else {
  await writeFile(target, text);
}
