// Started by the path race test as a separate process: swaps <root>/dir between a real directory and a
// symlink to <outside> as fast as it can, until killed, so the backend's checks race a real attacker.
import { renameSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";

const [root, outside] = process.argv.slice(2) as [string, string];
const dir = join(root, "dir");
const parked = join(root, "parked");
const step = (action: () => void) => {
  try {
    action();
  } catch {
    // A step that fails (the backend created something meanwhile) is skipped; the loop goes on.
  }
};
// The test kills this process when it ends; if the test's own process dies first (a timeout that tears its
// worker down), this one is handed to another parent and stops, instead of swapping on for ever.
const parent = process.ppid;
for (let round = 1; ; round++) {
  if (round % 1000 === 0 && process.ppid !== parent) process.exit(0);
  step(() => renameSync(dir, parked)); // the real directory steps aside
  step(() => symlinkSync(outside, dir)); // a symlink out takes its name
  step(() => unlinkSync(dir));
  step(() => renameSync(parked, dir)); // and the real one comes back
}
