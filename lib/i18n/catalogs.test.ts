// The catalogs against each other and against the code. Every language has every key, with the
// same ICU arguments, plural and select choices and markup, so a translation can never lose a
// number or a link. The code and the catalogs agree: a key the code asks for exists, and a key no
// code asks for is gone. Messages handed to client components are plain text with {name}
// placeholders, the only thing components/i18n/client-messages.tsx fills in.
//
// The code is read as text (lib/architecture/source-files.ts), so the conventions of
// docs/languages.md are what make a key findable: a translator bound to a `t…` const from
// getTranslations/useTranslations/useClientTranslations/translatorFor with a literal namespace,
// called with a literal key or a template built from a code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { ROOT, read, sourceFiles } from '@/lib/architecture/source-files';
import { CATALOGS, type Messages } from './catalogs';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') leaves.set(full, value);
    else for (const [inner, text] of flatten(value, full)) leaves.set(inner, text);
  }
  return leaves;
}

function catalogOf(language: Language): Map<string, string> {
  const all: Messages = {};
  for (const catalog of CATALOGS) {
    all[catalog] = JSON.parse(readFileSync(path.join(ROOT, 'messages', language, `${catalog}.json`), 'utf8')) as Messages;
  }
  return flatten(all);
}

const catalogs = Object.fromEntries(LANGUAGES.map((language) => [language, catalogOf(language)])) as Record<Language, Map<string, string>>;
const english = catalogs[DEFAULT_LANGUAGE];

/** What a translation must keep: each argument with its type, each choice's options, each tag. */
function shape(elements: MessageFormatElement[], into: Set<string> = new Set()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(`${element.value}:${TYPE[element.type]}[${Object.keys(element.options).sort().join(',')}]`);
        for (const option of Object.values(element.options)) shape(option.value, into);
        break;
      case TYPE.tag:
        into.add(`<${element.value}>`);
        shape(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

const shapeOf = (message: string) => [...shape(parse(message))].sort();

describe('the catalogs', () => {
  it('every language has exactly one file per catalog', () => {
    for (const language of LANGUAGES) {
      const files = readdirSync(path.join(ROOT, 'messages', language)).sort();
      expect(files, language).toEqual(CATALOGS.map((catalog) => `${catalog}.json`).sort());
    }
  });

  it.each(LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE))('%s has every key English has, and no other', (language) => {
    const keys = [...catalogs[language].keys()];
    expect(
      keys.filter((key) => !english.has(key)),
      'keys English lacks',
    ).toEqual([]);
    expect(
      [...english.keys()].filter((key) => !catalogs[language].has(key)),
      'keys missing',
    ).toEqual([]);
  });

  it('every message parses, keeps the same arguments, choices and markup in every language, and has an "other" choice', () => {
    const problems: string[] = [];
    for (const [key, message] of english) {
      const expected = shapeOf(message);
      for (const choice of expected.filter((part) => /:(plural|select)\[/.test(part))) {
        if (!/[[,]other[\],]/.test(choice)) problems.push(`${key}: ${choice} has no "other"`);
      }
      for (const language of LANGUAGES) {
        const translated = catalogs[language].get(key);
        if (translated === undefined) continue; // reported above
        let actual: string[];
        try {
          actual = shapeOf(translated);
        } catch (error) {
          problems.push(`${language} ${key}: does not parse (${(error as Error).message})`);
          continue;
        }
        if (actual.join('|') !== expected.join('|')) problems.push(`${language} ${key}: ${actual.join(' ')} ≠ en ${expected.join(' ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('no message is empty; French and Dutch use the typographic apostrophe, French its no-break spaces', () => {
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      for (const [key, message] of catalogs[language]) {
        if (message.trim() === '') problems.push(`${language} ${key}: empty`);
        if (language !== 'en' && message.includes("'")) problems.push(`${language} ${key}: ' instead of ’`);
        // French typography: the sign stays with its word, never alone at the start of a line.
        if (language === 'fr' && /[ \t][:;!?»]|«[ \t]/.test(message)) problems.push(`${language} ${key}: a plain space by : ; ! ? or « »`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// ---- the code's side ------------------------------------------------------------------------

const TRANSLATOR =
  /(?:getTranslations|useTranslations|useClientTranslations|translatorFor)\(\s*(?:[\w.]+\s*,\s*)?(?:\{[^}]*?namespace:\s*)?['"]([\w.]+)['"]/;

/** A key the code asks for: where, as written (`call`), and under which namespace. */
type Use = { file: string; call: string; key: string; pattern?: RegExp };

/** Each translator name bound in a file, with the namespaces it is bound to there. */
function bindings(source: string): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const bind = (name: string, namespace: string) => {
    if (!names.has(name)) names.set(name, new Set());
    names.get(name)?.add(namespace);
  };
  for (const match of source.matchAll(new RegExp(`(?:const|let)\\s+(t\\w*)\\s*=\\s*(?:await\\s+)?${TRANSLATOR.source}`, 'g'))) {
    bind(match[1] as string, match[2] as string);
  }
  // const [t, tCommon, locale] = await Promise.all([getTranslations('a'), getTranslations('b'), getLocale()])
  for (const match of source.matchAll(/const\s*\[([^\]]+)\]\s*=\s*await\s+Promise\.all\(\[([\s\S]*?)\]\)/g)) {
    const targets = splitTopLevel(match[1] as string).map((name) => name.trim());
    const calls = splitTopLevel(match[2] as string);
    targets.forEach((name, index) => {
      const namespace = TRANSLATOR.exec(calls[index] ?? '')?.[1];
      if (namespace && /^t\w*$/.test(name)) bind(name, namespace);
    });
  }
  for (const match of source.matchAll(/\/\/ i18n: (\w+) = ([\w.]+)/g)) bind(match[1] as string, match[2] as string);
  return names;
}

/** `a(b, c), d(e)` → ['a(b, c)', 'd(e)']: the elements of an array literal, commas inside calls kept. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if ('([{'.includes(char)) depth += 1;
    if (')]}'.includes(char)) depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every key the code asks for: literal ones, and the patterns of keys built from a code. */
function uses(): { uses: Use[]; clientNamespaces: Set<string> } {
  const found: Use[] = [];
  const clientNamespaces = new Set<string>();
  for (const file of [...sourceFiles('app'), ...sourceFiles('components'), ...sourceFiles('lib')]) {
    const source = read(file);
    for (const match of source.matchAll(/useClientTranslations\(\s*['"]([\w.]+)['"]/g)) clientNamespaces.add(match[1] as string);
    for (const match of source.matchAll(/namespaces=\{\[([^\]]*)\]\}/g)) {
      for (const namespace of (match[1] as string).matchAll(/['"]([\w.]+)['"]/g)) clientNamespaces.add(namespace[1] as string);
    }
    for (const [name, namespaces] of bindings(source)) {
      const call = new RegExp(
        `\\b${name}(?:\\.(?:rich|markup|raw|has))?\\(\\s*(?:'([^']+)'|"([^"]+)"|\`([^\`]+)\`|([A-Za-z_$][\\w$.]*)\\s*[,)])`,
        'g',
      );
      for (const match of source.matchAll(call)) {
        const literal = match[1] ?? match[2];
        // A variable names a key under the namespace (a code: t(purpose), t(action) for "sign_in.failed").
        const template = match[3] ?? (match[4] === undefined ? undefined : `\${${match[4]}}`);
        for (const namespace of namespaces) {
          if (literal !== undefined) found.push({ file, call: literal, key: `${namespace}.${literal}` });
          else if (template !== undefined) {
            const key = `${namespace}.${template}`;
            const pattern = new RegExp(
              `^${key
                .split(/\$\{[^}]*\}/)
                .map(escapeRegExp)
                .join('.+')}$`,
            );
            found.push({ file, call: template, key, pattern });
          }
        }
      }
    }
  }
  return { uses: found, clientNamespaces };
}

describe('the catalogs and the code', () => {
  const { uses: used, clientNamespaces } = uses();

  it('every key the code asks for exists', () => {
    // A name bound to several namespaces in one file: the key must exist in one of them.
    const byCall = new Map<string, Use[]>();
    for (const use of used) {
      const call = `${use.file} ${use.call}`;
      byCall.set(call, [...(byCall.get(call) ?? []), use]);
    }
    const missing = [...byCall.entries()]
      .filter(([, candidates]) =>
        candidates.every((use) => (use.pattern ? ![...english.keys()].some((key) => use.pattern?.test(key)) : !english.has(use.key))),
      )
      .map(([call, candidates]) => `${call} (in ${candidates.map((use) => use.key.slice(0, -use.call.length - 1)).join(' or ')})`);
    expect(missing).toEqual([]);
  });

  it('every key is used by some code', () => {
    const literal = new Set(used.filter((use) => !use.pattern).map((use) => use.key));
    const patterns = used.flatMap((use) => (use.pattern ? [use.pattern] : []));
    const unused = [...english.keys()].filter((key) => !literal.has(key) && !patterns.some((pattern) => pattern.test(key)));
    expect(unused).toEqual([]);
  });

  it('messages for client components hold plain text and {name} placeholders only', () => {
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      for (const [key, message] of catalogs[language]) {
        if (![...clientNamespaces].some((namespace) => key.startsWith(`${namespace}.`))) continue;
        const elements = parse(message);
        if (elements.some((element) => element.type !== TYPE.literal && element.type !== TYPE.argument)) {
          problems.push(`${language} ${key}: a plural, select, format or tag (resolve it on the server)`);
        }
        if (/''|'\{/.test(message)) problems.push(`${language} ${key}: an ICU escape the client does not undo`);
      }
    }
    expect(problems).toEqual([]);
  });
});
