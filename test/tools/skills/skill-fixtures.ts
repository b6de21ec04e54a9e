import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A SKILL.md with the given front matter lines and body. */
export function skillMd(frontMatter: string, body = "Follow these steps."): string {
  return `---\n${frontMatter}\n---\n${body}\n`;
}

/** Writes a skill folder (`files` by path inside it, SKILL.md included) under `parent`, and returns its path. */
export function writeSkill(parent: string, folder: string, files: Record<string, string | Uint8Array>): string {
  const root = join(parent, folder);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** A skill named `report-maker` with a reference, an asset (binary), and a shell and a Python script. */
export function reportMakerFiles(): Record<string, string | Uint8Array> {
  return {
    "SKILL.md": skillMd("name: report-maker\ndescription: Makes a one-line report of the workspace's files. Use when asked for a report.", "# Report maker\n\n1. Run scripts/report.sh.\n2. Read references/format.md."),
    "references/format.md": "Reports are one line: REPORT <count> files.",
    "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]),
    "scripts/report.sh": 'echo "REPORT $(ls | wc -l) files" > report.txt\ncat report.txt\necho "args: $*"\n',
    "scripts/count.py": "import os, sys\nprint('python sees', len(os.listdir('.')), 'files', sys.argv[1:])\n",
  };
}
