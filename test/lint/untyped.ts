/**
 * The project's eslint.config.js without the rules that need types: the import map of
 * ARCHITECTURE.md, the cycle check and the style rules, in a quarter of the time a typed run
 * takes (that one builds the whole TypeScript program first). `npm test` runs this beside the
 * type check; `npm run lint` runs every rule. Run as a script, it lints the tree and prints
 * what eslint's CLI would, exiting 1 on an error.
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** `ignore: false` also lints what the config ignores, such as the boundary test's planted folders. */
export function untypedEslint(opts: { ignore?: boolean } = {}): ESLint {
  return new ESLint({
    cwd: root,
    ignore: opts.ignore ?? true,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/switch-exhaustiveness-check": "off" },
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const eslint = untypedEslint();
  const results = await eslint.lintFiles(["."]);
  const formatter = await eslint.loadFormatter("stylish");
  process.stdout.write(await formatter.format(results));
  process.exitCode = results.some((r) => r.errorCount > 0) ? 1 : 0;
}
