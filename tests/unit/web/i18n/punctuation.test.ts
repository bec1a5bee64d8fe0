// Punctuation and numbers belong to the catalogs (issue 24 item 17): no ' :' written in code
// (the English console read 'Target the map's selection :'), a colon as each language writes it,
// and every count of a toast or message in the locale's number format ('1 165 leads').
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { makeIntl, translator, type Language } from '../../../../src/i18n';

const root = resolve(import.meta.dirname, '../../../..');
const catalogs = Object.fromEntries(
  (['fr', 'en', 'es', 'zh'] as const).map((l) => [l, JSON.parse(readFileSync(join(root, `src/i18n/${l}.json`), 'utf8')) as Record<string, string>]),
) as Record<Language, Record<string, string>>;

/** Colons that are not punctuation: times (HH:mm, 08:00) and URLs. */
const punctuation = (text: string) => text.replace(/\w:\w|https?:\/\//g, '');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * Text of the code that reaches the screen as written: JSX text, string literals and template
 * parts; an endpoint's `summary` is the API's description for integrators (GET /api/openapi.json), never shown.
 */
function literals(file: string): Array<{ at: string; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Array<{ at: string; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'summary') return;
    if (ts.isJsxText(node) || ts.isStringLiteralLike(node) || ts.isTemplateMiddle(node) || ts.isTemplateHead(node) || ts.isTemplateTail(node)) {
      found.push({ at: `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A count shown as is: a plain `{count}` argument, not `{count, number}` nor a plural's `#`. */
function plainCounts(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((e) => {
    if (e.type === TYPE.argument && /^(count|n|total|cap|done|min|max|selected)$/.test(e.value)) return [e.value];
    if (e.type === TYPE.plural || e.type === TYPE.select) return Object.values(e.options).flatMap((o) => plainCounts(o.value));
    return [];
  });
}

describe('localised punctuation', () => {
  it('writes no colon of a sentence in the code: it comes with its message, per language', () => {
    // `${command.id}: ${message}`: the error log's technical record (a command id), not a sentence.
    // `${path}: parameter ${key} missing`: a programming error of src/api/endpoint.ts, for developers.
    const technical = new Set(['src/views/shell/index.tsx ": "', 'src/api/endpoint.ts ": parameter "']);
    const colons = sourceFiles(join(root, 'src'))
      .flatMap(literals)
      // A bare ':' or 'word:' (lower case) joins ids ('choice:3', 'h:') or names a protocol: not a sentence.
      .filter(({ text }) => !/^[a-z]*:$/.test(text) && /\s:|:(\s|$)|：/.test(punctuation(text)))
      .map(({ at, text }) => `${at} ${JSON.stringify(text)}`)
      .filter((hit) => !technical.has(hit.replace(/:\d+ /, ' ')));
    expect(colons).toEqual([]);
  });

  it('puts a narrow no-break space before a French colon, none in English and Spanish, a full-width one in Chinese', () => {
    const wrong = (language: Language, bad: RegExp) =>
      Object.entries(catalogs[language])
        .filter(([, text]) => bad.test(punctuation(text)))
        .map(([id, text]) => `${language} ${id}: ${text}`);
    expect(wrong('fr', /(^|[^\u202f]):/)).toEqual([]);
    expect(wrong('en', /\s:/)).toEqual([]);
    expect(wrong('es', /\s:/)).toEqual([]);
    expect(wrong('zh', /:/)).toEqual([]);
  });
});

describe('counts in toasts and messages', () => {
  it('formats every count of a toast with the locale number format', () => {
    const toastIds = new Set(
      sourceFiles(join(root, 'src')).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/toast\.\w+\(\s*(?:ctx\.)?t\(\s*'([\w.]+)'/g)].map((m) => m[1]!),
      ),
    );
    expect(toastIds.size).toBeGreaterThan(30);
    const plain = [...toastIds].flatMap((id) => (catalogs.fr[id] ? plainCounts(parse(catalogs.fr[id])).map((arg) => `${id} {${arg}}`) : []));
    expect(plain).toEqual([]);
  });

  it('shows 1 165 in French, 1,165 in English and Chinese', () => {
    const fr = translator(makeIntl('fr', catalogs.fr));
    const en = translator(makeIntl('en', catalogs.en));
    const zh = translator(makeIntl('zh', catalogs.zh));
    expect(fr('exports.toast.reinjected', { count: 1165 })).toBe('Leads insérés (1\u202f165)\u202f: ils repassent par les règles de livraison');
    expect(en('exports.toast.reinjected', { count: 1165 })).toBe('Leads inserted (1,165): they go through the delivery rules again');
    expect(fr('taboola.toast.departements', { count: 1165, departements: '30, 34' })).toBe('1\u202f165 codes postaux pour 30, 34');
    expect(zh('exports.toast.bigReady', { count: 1165 })).toContain('1,165');
    expect(fr('rules.fill.title', { count: 1165, cap: 2000 })).toBe("1\u202f165 leads livrés aujourd'hui sur 2\u202f000");
    expect(fr('reports.subtitle', { customer: 'Éco Habitat Sud', cap: 1500 })).toBe('Éco Habitat Sud · 1\u202f500 leads par jour');
    expect(fr('reports.log.noAttempts', { count: 1165 })).toBe('1\u202f165 leads livrés ce jour-là, aucun envoi enregistré.');
    expect(en('taboola.fromMap.lead')).toBe("Target the map's selection:");
    expect(zh('taboola.fromMap.lead')).toBe('定向到地图所选区域：');
  });
});
