/**
 * Every exported function's and class's options are one exported, documented interface: a
 * parameter named `options` is a named type that an entry point exports (not an inline object
 * or an `Omit<...>`), and every `...Options` type an entry point exports documents each field,
 * with a `@default` for each optional one. Read from the sources with TypeScript's own checker.
 */
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRIES = [
  'index',
  'report/index',
  'distributed/index',
  'agent/index',
  'adapters/index',
  'import/index',
  'serve/index',
].map((entry) => resolve(ROOT, 'src', `${entry}.ts`));

const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

/** Each entry point's exports, aliases followed. */
const exported: ts.Symbol[] = ENTRIES.flatMap((file) => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker
    .getExportsOfModule(module)
    .map((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol));
});
const exportedNames = new Set(exported.map((symbol) => symbol.name));

/** The parameter lists of an exported function or of an exported class's constructors. */
function signatures(symbol: ts.Symbol): ts.SignatureDeclarationBase[] {
  return (symbol.declarations ?? []).flatMap((declaration): ts.SignatureDeclarationBase[] => {
    if (ts.isFunctionDeclaration(declaration)) return [declaration];
    if (ts.isClassDeclaration(declaration)) return declaration.members.filter(ts.isConstructorDeclaration);
    return [];
  });
}

describe('options of the public API', () => {
  it('every options parameter is a named, exported type', () => {
    const problems: string[] = [];
    let seen = 0;
    for (const symbol of exported) {
      for (const signature of signatures(symbol)) {
        for (const parameter of signature.parameters) {
          if (!/^options$/i.test(parameter.name.getText())) continue;
          seen++;
          const type = parameter.type;
          if (type === undefined || !ts.isTypeReferenceNode(type)) {
            problems.push(
              `${symbol.name}: options is ${type ? `\`${type.getText()}\`` : 'untyped'}, not a named type`,
            );
          } else if (type.typeArguments !== undefined || !exportedNames.has(type.typeName.getText())) {
            problems.push(`${symbol.name}: options type \`${type.getText()}\` is not exported by name`);
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('every exported ...Options type documents each field, with a @default when optional', () => {
    const problems: string[] = [];
    const options = exported.filter((symbol) => /Options$/.test(symbol.name));
    for (const symbol of new Set(options)) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      for (const property of checker.getPropertiesOfType(type)) {
        const docs = ts.displayPartsToString(property.getDocumentationComment(checker)).trim();
        const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
        const withDefault = property.getJsDocTags(checker).some((tag) => tag.name === 'default');
        if (docs === '') problems.push(`${symbol.name}.${property.name}: no comment`);
        else if (optional && !withDefault)
          problems.push(`${symbol.name}.${property.name}: optional with no @default`);
      }
    }
    expect(options.length).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });
});
