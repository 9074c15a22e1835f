// Reading the console's own source from tests that guard build rules (sharing, antd's stylesheet).
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
/** Every workspace package whose code runs in the browser. */
export const BROWSER_PACKAGES = ['shell', 'shared-ui', 'shared-auth', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management'];

/** The TypeScript files under `dir`, tests left out. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The runtime names a file imports from `pkg` (type-only imports are erased by the compiler). */
export function importedNames(source: string, pkg: string): string[] {
  const names: string[] = [];
  const pattern = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s+from\\s+'${pkg}'`, 'g');
  for (const match of source.matchAll(pattern)) {
    if (match[1]) continue;
    for (const part of (match[2] ?? '').split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  return names;
}
