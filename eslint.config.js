import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * ARCHITECTURE.md's "must not import" table, one row per folder of src/. Folders are matched on
 * the resolved file, so a relative path means the same at any depth; packages by name.
 */
const PLATFORM_SDKS = ["grammy", "@grammyjs/*", "discord.js", "@discordjs/*"];
const MUST_NOT_IMPORT = [
  { folder: "core", folders: ["adapters", "digest", "ops", "alerts", "app", "cli"], packages: PLATFORM_SDKS },
  { folder: "i18n", folders: ["adapters"] },
  { folder: "market", folders: ["core", "cache", "adapters", "digest", "alerts", "store", "app", "cli"] },
  { folder: "cache", folders: ["core", "adapters"] },
  // The store reads who waits and until when (market/ask.ts) to bound a hung database's calls.
  { folder: "store", folders: ["core", "adapters", "market/!(ask.ts)"] },
  { folder: "digest", folders: [], packages: PLATFORM_SDKS },
  { folder: "alerts", folders: [], packages: PLATFORM_SDKS },
  { folder: "launches", folders: [], packages: PLATFORM_SDKS },
  { folder: "buys", folders: [], packages: PLATFORM_SDKS },
  { folder: "calls", folders: ["adapters"] },
  // The send protocol reads the store's contract (types.ts), never an implementation.
  { folder: "delivery", folders: ["store/**/!(types.ts)"], packages: PLATFORM_SDKS },
  // Redis implements contracts of the layers it serves (the adapters' chat order and route books among them), never the core's.
  { folder: "redis", folders: ["core"], packages: PLATFORM_SDKS },
  { folder: "chart", folders: ["core/commands", "adapters"] },
  // The adapters may read the store's contract (types.ts), never an implementation.
  { folder: "adapters", folders: ["market", "cache", "store/**/!(types.ts)"] },
];

/** Who may start a bot or reach the stand-in data service. */
const ENTRY_ZONES = [
  { target: "./src/!(cli)/**", from: "./src/cli", message: "Only src/main.ts loads a subcommand." },
  { target: ["./src/!(cli)/**", "./src/*.ts"], from: "./src/app/start-bot.ts", message: "Only src/cli/start.ts starts a bot." },
  {
    target: ["./src/!(sandbox|cli|app)/**", "./src/app/!(build-core.ts)", "./src/*.ts"],
    from: "./src/sandbox",
    message: "Only demo mode (app/build-core.ts) and `chainpulse sandbox` reach the sandbox.",
  },
];

const folderZones = MUST_NOT_IMPORT.flatMap((row) =>
  row.folders.map((f) => ({
    target: `./src/${row.folder}`,
    from: `./src/${f}`,
    message: `ARCHITECTURE.md: src/${row.folder}/ must not import src/${f}.`,
  })),
);

const packageRules = MUST_NOT_IMPORT.filter((row) => row.packages).map((row) => ({
  files: [`src/${row.folder}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      { patterns: [{ group: row.packages, message: `ARCHITECTURE.md: src/${row.folder}/ knows no platform.` }] },
    ],
  },
}));

export default tseslint.config(
  // src/**/planted-*/: folders test/lint/boundaries.test.ts plants for one test while the other checks run.
  { ignores: ["dist/", "node_modules/", "data/", "coverage/", "src/**/planted-*/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
      "no-console": "off",
    },
  },
  {
    files: ["bin/**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    files: ["src/**/*.ts", "test/**/*.ts", "bench/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits or catches fails silently and outlives the work that started it.
      "@typescript-eslint/no-floating-promises": "error",
      // A new member of a union (a send outcome, a reply block) must be handled wherever it is switched on.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      // Sources import each other as `./x.js`; the files are `./x.ts`.
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } })],
    },
    rules: {
      // Cycles of modules that load each other (type-only imports are erased, and no-cycle skips
      // them; the folder rules below keep the layers apart).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": ["error", { zones: [...folderZones, ...ENTRY_ZONES] }],
    },
  },
  ...packageRules,
  {
    files: ["src/**/*.ts"],
    ignores: ["src/config.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read settings in src/config.ts only." },
      ],
    },
  },
);
