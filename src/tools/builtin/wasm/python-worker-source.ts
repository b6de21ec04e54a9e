/**
 * The program the Python worker thread runs, as JavaScript text: a worker is
 * started from a file or from text, and text works the same when toolsmith
 * runs from its TypeScript sources (tests) and from the compiled package, with
 * no separate build step for the worker.
 *
 * What it does, in order:
 * 1. caps WebAssembly memory: `Memory.grow` refuses to pass the cap, so
 *    Python's allocator fails (MemoryError) instead of taking the host's memory;
 * 2. loads Pyodide from the npm package's own directory (never a CDN);
 * 3. locks the thread down before any user code runs: no child processes
 *    (Pyodide's `os.system` would otherwise start host shell commands), no
 *    sockets, HTTP, WebSocket or fetch unless the network is allowed, no `js`
 *    or `pyodide_js` module for Python (the bridge to JavaScript), and no way
 *    to compile JavaScript from strings through a function's constructor;
 * 4. answers messages: `run` (apply file changes to `/workspace`, run code in a
 *    fresh namespace, send back output and changed files) and `install`
 *    (load wheels from local paths).
 */
export const PYTHON_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const nodeModule = require("node:module");
const crypto = require("node:crypto");

const WORKSPACE = "/workspace";
const memoryCapBytes = workerData.memoryBytes;
let memoryCapHit = false;
const realGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function grow(pages) {
  if (this.buffer.byteLength + pages * 65536 > memoryCapBytes) {
    memoryCapHit = true;
    throw new RangeError("WebAssembly memory cap reached");
  }
  return realGrow.call(this, pages);
};

function refuse(what) {
  return function refused() {
    const error = new Error(what + " is not allowed in the WebAssembly sandbox");
    error.code = "EACCES";
    throw error;
  };
}

function lockDown(pyodide) {
  // Child processes: Emscripten's system() calls spawnSync; answer "command not found" (127) without starting anything.
  const childProcess = require("node:child_process");
  for (const name of ["spawn", "exec", "execFile", "fork", "execSync", "execFileSync"]) childProcess[name] = refuse("starting a process");
  childProcess.spawnSync = () => ({ pid: 0, status: 127, signal: null, output: [null, null, null], stdout: null, stderr: null });
  if (!workerData.allowNetwork) {
    const net = require("node:net");
    const tls = require("node:tls");
    const http = require("node:http");
    const https = require("node:https");
    const dgram = require("node:dgram");
    net.Socket.prototype.connect = function connect() {
      const socket = this;
      const error = Object.assign(new Error("connect ECONNREFUSED: the network is not allowed in the WebAssembly sandbox"), { code: "ECONNREFUSED" });
      process.nextTick(() => socket.destroy(error));
      return socket;
    };
    net.Server.prototype.listen = refuse("listening on a port");
    tls.connect = refuse("opening a TLS connection");
    for (const module of [http, https]) { module.request = refuse("an HTTP request"); module.get = refuse("an HTTP request"); }
    dgram.createSocket = refuse("a UDP socket");
    for (const name of ["fetch", "WebSocket", "EventSource", "XMLHttpRequest"]) delete globalThis[name];
    const load = nodeModule._load;
    nodeModule._load = function guardedLoad(request, ...rest) {
      if (request === "ws") throw Object.assign(new Error("the network is not allowed in the WebAssembly sandbox"), { code: "EACCES" });
      return load.call(this, request, ...rest);
    };
  }
  nodeModule.syncBuiltinESMExports();
  // Python's way into JavaScript: without these modules Python code cannot reach the thread's globals.
  pyodide.runPython("import sys\nfor name in ('js', 'pyodide_js'):\n    sys.modules.pop(name, None)");
  const abortSignalAny = pyodide._api && pyodide._api.abortSignalAny;
  pyodide.unregisterJsModule("js");
  pyodide.unregisterJsModule("pyodide_js");
  if (workerData.allowNetwork) {
    // Only what pyodide.http.pyfetch needs (Python's sockets have no way out on Node): fetch and its classes.
    const fetch = globalThis.fetch.bind(globalThis);
    pyodide.registerJsModule("js", { fetch, AbortController, AbortSignal, Object, Request, Headers, Response });
    pyodide.registerJsModule("pyodide_js", { _api: { abortSignalAny } });
  }
  // A JavaScript object handed to Python still has a constructor, and a function's constructor compiles code from a string.
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const fn of functionKinds) {
    Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: refuse("compiling JavaScript"), writable: false, configurable: false });
  }
  delete globalThis.require;
  for (const name of ["binding", "_linkedBinding", "dlopen", "getBuiltinModule", "kill", "chdir"]) {
    try { process[name] = refuse("process." + name); } catch {}
  }
}

function hash(bytes) {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

let pyodide;
let runCode;
const synced = new Map();
let output = [];
let outputBytes = 0;

let truncated = false;

function capture(stream) {
  return (text) => {
    const line = Buffer.from(text + "\n");
    const room = workerData.maxOutputBytes - outputBytes;
    if (line.byteLength > room) truncated = true;
    if (room <= 0) return;
    // Cut at the cap (a character split there is dropped by the decoder rather than mangled).
    const kept = line.byteLength > room ? new TextDecoder().decode(line.subarray(0, room)).replace(/\uFFFD$/, "") : line.toString();
    outputBytes += Buffer.byteLength(kept);
    output.push([stream, kept]);
  };
}

function workspaceFiles() {
  const FS = pyodide.FS;
  const files = new Map();
  const skipped = [];
  const visit = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = dir + "/" + name;
      const stat = FS.lstat(path);
      if (FS.isLink(stat.mode)) { skipped.push({ path, reason: "it is a symbolic link; links are not saved" }); continue; }
      if (FS.isDir(stat.mode)) visit(path);
      else if (FS.isFile(stat.mode)) files.set(path, FS.readFile(path));
    }
  };
  visit(WORKSPACE);
  return { files, skipped };
}

function ensureParent(path) {
  const FS = pyodide.FS;
  const parts = path.split("/").slice(1, -1);
  let dir = "";
  for (const part of parts) {
    dir += "/" + part;
    const found = FS.analyzePath(dir);
    if (found.exists && !FS.isDir(found.object.mode)) FS.unlink(dir);
    if (!found.exists || !FS.isDir(found.object.mode)) FS.mkdir(dir);
  }
}

function applyChanges(changes) {
  const FS = pyodide.FS;
  for (const path of changes.remove) {
    // A folder named for removal goes when it is empty (a code executor clears the run before's folders).
    try { FS.unlink(path); } catch { try { FS.rmdir(path); } catch {} }
    synced.delete(path);
  }
  for (const [path, bytes] of changes.write) {
    ensureParent(path);
    const found = FS.analyzePath(path);
    if (found.exists && FS.isLink(FS.lstat(path).mode)) FS.unlink(path);
    FS.writeFile(path, bytes);
    synced.set(path, hash(bytes));
  }
}

function collectChanges() {
  const { files, skipped } = workspaceFiles();
  const written = [];
  const removed = [];
  for (const [path, bytes] of files) {
    const digest = hash(bytes);
    if (synced.get(path) !== digest) { written.push([path, bytes]); synced.set(path, digest); }
  }
  for (const path of [...synced.keys()]) if (!files.has(path)) { removed.push(path); synced.delete(path); }
  return { written, removed, skipped };
}

async function run(message) {
  applyChanges(message.changes);
  output = [];
  outputBytes = 0;
  truncated = false;
  memoryCapHit = false;
  const FS = pyodide.FS;
  FS.chdir(WORKSPACE);
  // Every run sets sys.argv, so arguments never carry over to the next run; the code itself is run as given, so
  // its line numbers and a leading "from __future__" import stay as written.
  const argv = pyodide.toPy(message.argv || ["script.py"]);
  const sys = pyodide.pyimport("sys");
  sys.argv = argv;
  sys.destroy();
  argv.destroy();
  const namespace = pyodide.globals.get("dict")();
  let result;
  let error;
  try {
    // The last expression's value as Python's str() writes it (True, 1.0, None is no result).
    const value = await runCode(message.code, namespace);
    if (value !== undefined && value !== null) result = String(value);
  } catch (caught) {
    error = caught && caught.message ? String(caught.message) : String(caught);
  } finally {
    namespace.destroy();
  }
  let files;
  try { files = collectChanges(); } catch (caught) { files = { written: [], removed: [], skipped: [{ path: WORKSPACE, reason: String(caught) }] }; }
  return { output, truncated, result, error, memoryCapHit, files };
}

async function install(message) {
  const results = [];
  for (const item of message.packages) {
    const errors = [];
    try {
      await pyodide.loadPackage(item.paths, { messageCallback: () => {}, errorCallback: (text) => { errors.push(text); }, checkIntegrity: true });
      if (errors.length > 0) throw new Error(errors.join("; "));
      results.push({ package: item.name, success: true });
    } catch (caught) {
      results.push({ package: item.name, success: false, error: caught && caught.message ? caught.message : String(caught) });
    }
  }
  return { results };
}

async function main() {
  const { loadPyodide } = await import(workerData.pyodideUrl);
  pyodide = await loadPyodide({
    indexURL: workerData.indexPath,
    packageCacheDir: workerData.packageDirectory || workerData.indexPath,
    stdout: capture("stdout"),
    stderr: capture("stderr"),
    env: { HOME: WORKSPACE },
    jsglobals: {},
  });
  pyodide.FS.mkdirTree(WORKSPACE);
  runCode = pyodide.runPython(
    "from pyodide.code import eval_code_async\n" +
    "async def run(code, namespace):\n" +
    "    value = await eval_code_async(code, namespace)\n" +
    "    return None if value is None else str(value)\n" +
    "run",
    // A file name of its own, so tracebacks can be cut to the frames of the user's code ("<exec>").
    { globals: pyodide.globals.get("dict")(), filename: "<toolsmith-runner>" },
  );
  lockDown(pyodide);
  parentPort.on("message", async (message) => {
    try {
      const answer = message.type === "run" ? await run(message) : await install(message);
      parentPort.postMessage({ id: message.id, ok: true, answer });
    } catch (caught) {
      parentPort.postMessage({ id: message.id, ok: false, error: caught && caught.message ? caught.message : String(caught), memoryCapHit });
    }
  });
  parentPort.postMessage({ ready: true });
}

main().catch((caught) => parentPort.postMessage({ ready: false, error: caught && caught.stack ? caught.stack : String(caught) }));
`;
