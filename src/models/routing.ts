/**
 * Picks the key of the item to run: first with no `failure`, then, after the item it picked failed before giving
 * anything, with the keys tried so far and the error, to pick another (or undefined to give up). ADK's router
 * signature, shared by `RoutedLlm` and `RoutedAgent`.
 */
export type Router<Item, Context> = (
  items: Readonly<Record<string, Item>>,
  context: Context,
  failure?: { failedKeys: ReadonlySet<string>; lastError: unknown },
) => Promise<string | undefined> | string | undefined;

/** How an attempt went: it gave results (yielded here), or failed before giving any. */
export type Attempt = { failed: false } | { failed: true; error: unknown };

/**
 * Runs the item the router picks and yields what it gives, as ADK's `runWithRouting`: an item that fails before it
 * has given anything (`attempt` reports it) is replaced by the one the router picks next, never one already tried;
 * once it has given something, nothing is run again, since a second item could repeat what the first did. When the
 * router gives up, `giveUp` decides what ends the run (ADK throws the last error). Keys the router names that are
 * not items are refused with `unknownKey`.
 */
export async function* runWithRouting<Item, Context, Result>(options: {
  items: Readonly<Record<string, Item>>;
  context: Context;
  router: Router<Item, Context>;
  run: (item: Item, key: string) => AsyncGenerator<Result, Attempt, undefined>;
  giveUp: (error: unknown) => AsyncGenerator<Result, void, undefined> | never;
  noneSelected: () => Error;
  unknownKey: (key: string) => Error;
}): AsyncGenerator<Result, void, undefined> {
  const { items, context, router, run } = options;
  const first = await router(items, context);
  if (!first) throw options.noneSelected();
  const tried = new Set<string>();
  let key: string = first;
  for (;;) {
    if (!Object.hasOwn(items, key)) throw options.unknownKey(key);
    tried.add(key);
    const attempt = yield* run(items[key]!, key);
    if (!attempt.failed) return;
    const next = await router(items, context, { failedKeys: tried, lastError: attempt.error });
    if (next === undefined || tried.has(next)) {
      yield* options.giveUp(attempt.error);
      return;
    }
    key = next;
  }
}
