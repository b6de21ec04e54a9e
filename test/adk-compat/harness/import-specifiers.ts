/** Import and export specifiers (`from "x"`, `import("x")`, `import "x"`) with their surrounding syntax. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g;

/** Placeholder that both frameworks' own specifiers become. */
const FRAMEWORK = "<framework>";

/**
 * The program's source with its framework's import specifiers ("@google/adk…"
 * in adk.ts, "toolsmith…" in toolsmith.ts) replaced by one placeholder: two
 * ports are the same program when these are equal.
 */
export function withFrameworkImportsNeutral(source: string, framework: "adk" | "toolsmith"): string {
  const ownSpecifier = framework === "adk" ? /^@google\/adk(\/.*)?$/ : /^toolsmith(\/.*)?$/;
  return source.replace(SPECIFIER, (whole, before: string, quote: string, specifier: string) =>
    ownSpecifier.test(specifier) ? `${before}${quote}${FRAMEWORK}${quote}` : whole,
  );
}

/** Every import specifier in a source file. */
export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[3]!);
}
