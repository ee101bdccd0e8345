/**
 * One service instance per dependency set: routers reach their services through `ctx.deps`, so
 * a factory taking narrow dependencies is built once per app (or per test server), not per call.
 */
export function perDeps<D extends object, S>(factory: (deps: D) => S): (deps: D) => S {
  const instances = new WeakMap<D, S>();
  return (deps) => {
    let service = instances.get(deps);
    if (service === undefined) instances.set(deps, (service = factory(deps)));
    return service;
  };
}
